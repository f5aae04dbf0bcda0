package io.argus.bridge.db;

import io.argus.bridge.ActiveSpan;

/** What the core implements behind {@link DatabaseCalls}; safe to call with any arguments, nulls included. */
public interface DatabaseHooks {

    void statementCreated(Object statement, Object connection, String sql);

    void addBatch(Object statement, String sql);

    long enter();

    ActiveSpan start(Object statement, String sql);

    void exit(ActiveSpan span, long startNanos, Object statement, String sql, Throwable error);

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
    };
}
