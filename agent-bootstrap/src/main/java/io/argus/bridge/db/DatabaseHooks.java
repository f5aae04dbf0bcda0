package io.argus.bridge.db;

import io.argus.bridge.ActiveSpan;

/** What the core implements behind {@link DatabaseCalls}; safe to call with any arguments, nulls included. */
public interface DatabaseHooks {

    void statementCreated(Object statement, Object connection, String sql);

    void addBatch(Object statement, String sql);

    long enter();

    ActiveSpan start(Object statement, String sql);

    void exit(ActiveSpan span, long startNanos, Object statement, String sql, Throwable error);

    ActiveSpan startCall(Object parent, String system, String operation, String statement, String target,
                         String dbName, String host, int port);

    void endCall(ActiveSpan span, long startNanos, String operation, String target, Throwable error);

    void exitCall(ActiveSpan span, long startNanos, String operation, String target, Throwable error);

    String statement(String operation, Object[] args, int count);

    /** Does nothing; in place until the core installs itself, and when the agent is off. */
    DatabaseHooks NOOP = new DatabaseHooks() {
        @Override
        public void statementCreated(Object statement, Object connection, String sql) {
        }

        @Override
        public void addBatch(Object statement, String sql) {
        }

        @Override
        public long enter() {
            return 0;
        }

        @Override
        public ActiveSpan start(Object statement, String sql) {
            return null;
        }

        @Override
        public void exit(ActiveSpan span, long startNanos, Object statement, String sql, Throwable error) {
        }

        @Override
        public ActiveSpan startCall(Object parent, String system, String operation, String statement, String target,
                                    String dbName, String host, int port) {
            return null;
        }

        @Override
        public void endCall(ActiveSpan span, long startNanos, String operation, String target, Throwable error) {
        }

        @Override
        public void exitCall(ActiveSpan span, long startNanos, String operation, String target, Throwable error) {
        }

        @Override
        public String statement(String operation, Object[] args, int count) {
            return operation;
        }
    };
}
