package io.argus.collector;

import java.util.logging.LogManager;

/**
 * The JDK's log manager closes every handler from its own shutdown hook, which races with the collector's
 * shutdown hook and swallows its last lines ("Argus collector stopped"). {@link CollectorMain} installs this
 * manager, which ignores that one reset; the process is exiting anyway and the console handler flushes after
 * every record.
 */
public final class CollectorLogManager extends LogManager {
    public CollectorLogManager() {
    }

    @Override
    public void reset() {
        if (Thread.currentThread().getClass().getName().startsWith(LogManager.class.getName() + "$")) {
            return;
        }
        super.reset();
    }
}
