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

    ActiveSpan internalStart(String name);

    void internalEnd(ActiveSpan span, Throwable error);

    void detach(ActiveSpan span);

    Object currentContext();

    Object attachContext(Object context);

    void restoreContext(Object previous);

    void bind(Object carrier, ActiveSpan span);

    ActiveSpan unbind(Object carrier);

    void adviceError(Throwable error);

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
    };
}
