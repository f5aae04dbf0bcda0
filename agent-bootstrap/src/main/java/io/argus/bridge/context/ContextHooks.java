package io.argus.bridge.context;

import io.argus.bridge.ActiveSpan;

/** What the core implements behind {@link TraceContext}; safe to call with any arguments, nulls included. */
public interface ContextHooks {

    Object current();

    Object attach(Object context);

    void restore(Object previous);

    Object attachInherited(Object context);

    void detach(ActiveSpan span);

    ActiveSpan startInternal(String name);

    void endInternal(ActiveSpan span, Throwable error);

    /** Does nothing; in place until the core installs itself, and when the agent is off. */
    ContextHooks NOOP = new ContextHooks() {
        @Override
        public Object current() {
            return null;
        }

        @Override
        public Object attach(Object context) {
            return null;
        }

        @Override
        public void restore(Object previous) {
        }

        @Override
        public Object attachInherited(Object context) {
            return null;
        }

        @Override
        public void detach(ActiveSpan span) {
        }

        @Override
        public ActiveSpan startInternal(String name) {
            return null;
        }

        @Override
        public void endInternal(ActiveSpan span, Throwable error) {
        }
    };
}
