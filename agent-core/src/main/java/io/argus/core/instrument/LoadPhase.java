package io.argus.core.instrument;

/** Tells the transformers on this thread whether the class at hand is being loaded or retransformed. */
final class LoadPhase {

    private final ThreadLocal<Boolean> firstLoad = new ThreadLocal<Boolean>();

    void enter(boolean isFirstLoad) {
        firstLoad.set(isFirstLoad ? Boolean.TRUE : Boolean.FALSE);
    }

    boolean isInside() {
        return firstLoad.get() != null;
    }

    void exit() {
        firstLoad.remove();
    }

    boolean isFirstLoad() {
        return Boolean.TRUE.equals(firstLoad.get());
    }
}
