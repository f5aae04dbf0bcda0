package io.argus.plugin.jdkhttp;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.state.ObjectField;

/** The state the advice keeps on the JDK's own {@code HttpRequestImpl}. A helper class. */
public final class JdkHttpFields {

    static final String SPAN = "jdk-http-client.span";

    /** The client span whose context a traced request carries, for the requests derived from it. */
    public static final ObjectField<ActiveSpan> REQUEST_SPAN = ObjectField.named(SPAN);

    private JdkHttpFields() {
    }
}
