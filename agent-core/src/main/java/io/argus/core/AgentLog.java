package io.argus.core;

/**
 * The agent's own log: one line per event on stderr, prefixed {@code [argus]}. No logging
 * framework, so nothing of the application's logging setup is touched or needed.
 */
public final class AgentLog {

    public enum Level { DEBUG, INFO, WARN, ERROR, OFF }

    private static volatile Level threshold = Level.INFO;

    private AgentLog() {
    }

    public static void setLevel(Level level) {
        threshold = level;
    }

    public static boolean isDebug() {
        return threshold == Level.DEBUG;
    }

    public static void debug(String message) {
        log(Level.DEBUG, message, null);
    }

    public static void info(String message) {
        log(Level.INFO, message, null);
    }

    public static void warn(String message) {
        log(Level.WARN, message, null);
    }

    public static void warn(String message, Throwable error) {
        log(Level.WARN, message, error);
    }

    public static void error(String message) {
        log(Level.ERROR, message, null);
    }

    public static void error(String message, Throwable error) {
        log(Level.ERROR, message, error);
    }

    private static void log(Level level, String message, Throwable error) {
        if (level.ordinal() < threshold.ordinal()) {
            return;
        }
        StringBuilder line = new StringBuilder(message.length() + 24).append("[argus] ");
        if (level != Level.INFO) {
            line.append(level).append(' ');
        }
        line.append(message);
        if (error != null && !isDebug()) {
            line.append(": ").append(error);
        }
        System.err.println(line);
        if (error != null && isDebug()) {
            error.printStackTrace();
        }
    }
}
