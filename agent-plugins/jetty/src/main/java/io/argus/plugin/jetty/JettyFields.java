package io.argus.plugin.jetty;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.state.LongField;
import io.argus.bridge.state.ObjectField;

/**
 * The state the advice keeps on a Jetty request between the start of its handling and its
 * completion. A helper class: defined in Jetty's class loader, where advice names these constants.
 */
public final class JettyFields {

    static final String SPAN = "jetty.span";
    static final String ERROR = "jetty.error";
    static final String START = "jetty.start";

    /** The server span of a traced request, until its response is complete. */
    public static final ObjectField<ActiveSpan> REQUEST_SPAN = ObjectField.named(SPAN);
    /** Jetty 12: what the handler threw, which completeStream does not always see (12.1). */
    public static final ObjectField<Throwable> REQUEST_ERROR = ObjectField.named(ERROR);
    /** Jetty 9.4: the start of a request that went async. */
    public static final LongField REQUEST_START = LongField.named(START);

    private JettyFields() {
    }
}
