package io.argus.collector.alerting.rules;

/** A rules file that cannot be used: the message names the file's line (1-based) and what is wrong there. */
public final class RuleFileException extends Exception {
    private final int line;

    public RuleFileException(int line, String message) {
        super("line " + line + ": " + message);
        this.line = line;
    }

    /** The line of the file, 1-based; 0 when the file as a whole is at fault (missing, unreadable). */
    public int line() {
        return line;
    }
}
