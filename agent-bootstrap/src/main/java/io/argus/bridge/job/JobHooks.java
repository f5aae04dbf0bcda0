package io.argus.bridge.job;

import io.argus.bridge.ActiveSpan;

/** What the core implements behind {@link JobCalls}; safe to call with any arguments, nulls included. */
public interface JobHooks {

    Object enter();

    ActiveSpan start(String spanName);

    void exit(ActiveSpan span, long startNanos, String scheduler, String job, Throwable error, Object previous);

    /** Does nothing; in place until the core installs itself, and when the agent is off. */
    JobHooks NOOP = new JobHooks() {
        @Override
        public Object enter() {
            return null;
        }

        @Override
        public ActiveSpan start(String spanName) {
            return null;
        }

        @Override
        public void exit(ActiveSpan span, long startNanos, String scheduler, String job, Throwable error,
                         Object previous) {
        }
    };
}
