package io.argus.testing;

import java.util.concurrent.TimeUnit;

/** Stopping the processes tests start. */
final class Processes {

    private Processes() {
    }

    /** Stops {@code process} the way an operator would (SIGTERM, so shutdown hooks run), then forcibly. */
    static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
