package io.argus.bridge;

/**
 * What the agent core implements behind {@link Argus}. Advice never calls this directly.
 * Every method must be safe to call with any arguments, including nulls.
 */
public interface ArgusHooks {

    ActiveSpan serverStart(String method, String path, String traceparent, String tracestate, String b3);

    void serverEnd(ActiveSpan span, long startNanos, String method, String path, int status, Throwable error);

    ActiveSpan clientStart(String method, String host, int port, String url);

    void clientEnd(ActiveSpan span, long startNanos, String method, String host, int status, Throwable error);

    void clientEndOnCompletion(Object completionStage, ActiveSpan span, long startNanos, String method, String host);

    void clientPending(Object carrier, ActiveSpan span, long startNanos);

    boolean clientEndPending(Object carrier, String method, String host, int status, Throwable error);

    ActiveSpan internalStart(String name);

    void internalEnd(ActiveSpan span, Throwable error);

    void detach(ActiveSpan span);

    Object currentContext();

    Object attachContext(Object context);

    void restoreContext(Object previous);

    void bind(Object carrier, ActiveSpan span);

    ActiveSpan unbind(Object carrier);

    void adviceError(Throwable error);

    void bindContext(Object carrier);

    Object takeContext(Object carrier);

    void dbStatementCreated(Object statement, Object connection, String sql);

    void dbAddBatch(Object statement, String sql);

    long dbEnter();

    ActiveSpan dbStart(Object statement, String sql);

    void dbExit(ActiveSpan span, long startNanos, Object statement, String sql, Throwable error);

    /** Does nothing; in place until the core installs itself, and when the agent is off. */
    ArgusHooks NOOP = new ArgusHooks() {
        public ActiveSpan serverStart(String m, String p, String tp, String ts, String b3) {
            return null;
        }

        public void serverEnd(ActiveSpan s, long t, String m, String p, int st, Throwable e) {
        }

        public ActiveSpan clientStart(String m, String h, int port, String u) {
            return null;
        }

        public void clientEnd(ActiveSpan s, long t, String m, String h, int st, Throwable e) {
        }

        public void clientEndOnCompletion(Object f, ActiveSpan s, long t, String m, String h) {
        }

        public void clientPending(Object c, ActiveSpan s, long t) {
        }

        public boolean clientEndPending(Object c, String m, String h, int st, Throwable e) {
            return false;
        }

        public ActiveSpan internalStart(String n) {
            return null;
        }

        public void internalEnd(ActiveSpan s, Throwable e) {
        }

        public void detach(ActiveSpan s) {
        }

        public Object currentContext() {
            return null;
        }

        public Object attachContext(Object c) {
            return null;
        }

        public void restoreContext(Object p) {
        }

        public void bind(Object c, ActiveSpan s) {
        }

        public ActiveSpan unbind(Object c) {
            return null;
        }

        public void adviceError(Throwable e) {
        }

        public void bindContext(Object c) {
        }

        public Object takeContext(Object c) {
            return null;
        }

        public void dbStatementCreated(Object s, Object c, String sql) {
        }

        public void dbAddBatch(Object s, String sql) {
        }

        public long dbEnter() {
            return 0;
        }

        public ActiveSpan dbStart(Object s, String sql) {
            return null;
        }

        public void dbExit(ActiveSpan s, long t, Object st, String sql, Throwable e) {
        }
    };
}
