package io.argus.collector.storage.druid;

/** Druid refused or failed a query, or could not be reached; the message says which and why. */
public final class DruidQueryException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;

    public DruidQueryException(String message, int status, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    /** The HTTP status Druid answered, or 0 when it did not answer. */
    public int status() {
        return status;
    }
}
