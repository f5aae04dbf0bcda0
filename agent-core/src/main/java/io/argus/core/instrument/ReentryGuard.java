package io.argus.core.instrument;

/** Marks the threads inside the engine's transformer: classes they load meanwhile are not transformed in turn. */
final class ReentryGuard {

    private final ThreadLocal<Boolean> inside = new ThreadLocal<Boolean>();

    void enter() {
        inside.set(Boolean.TRUE);
    }

    boolean isInside() {
        return inside.get() != null;
    }

    void exit() {
        inside.remove();
    }
}
