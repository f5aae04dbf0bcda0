package io.argus.bridge;

/** Where a throwable that escaped advice code goes: the advice exception handler calls {@link #report}. */
public final class AdviceErrors {

    /** Counts and logs what advice let escape; installed by the core. */
    public interface Sink {
        void report(Throwable error);
    }

    private static final Sink IGNORE = new Sink() {
        @Override
        public void report(Throwable error) {
        }
    };

    private static volatile Sink sink = IGNORE;

    private AdviceErrors() {
    }

    public static void install(Sink implementation) {
        sink = implementation == null ? IGNORE : implementation;
    }

    public static void report(Throwable error) {
        sink.report(error);
    }
}
