package io.argus.collector.storage;

/** A query this store cannot answer (yet); the API answers 501 with the message. */
public final class UnsupportedQueryException extends RuntimeException {

    public UnsupportedQueryException(String query) {
        super(query + " is not available from this store");
    }
}
