package io.argus.plugin.tomcat;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.state.LongField;
import io.argus.bridge.state.ObjectField;

/**
 * The state the advice keeps on Tomcat's coyote request between the start of a request and its end.
 * The coyote request is recycled, not reallocated, and these fields survive recycling, so
 * {@link ServiceAdvice} clears them as each request begins. A helper class.
 */
public final class TomcatFields {

    static final String SPAN = "tomcat.span";
    static final String METHOD = "tomcat.method";
    static final String PATH = "tomcat.path";
    static final String ERROR = "tomcat.error";
    static final String START = "tomcat.start";

    /** The request's span; traced requests only. */
    public static final ObjectField<ActiveSpan> REQUEST_SPAN = ObjectField.named(SPAN);
    /** The method as recorded when the request started. */
    public static final ObjectField<String> REQUEST_METHOD = ObjectField.named(METHOD);
    /** The path as recorded when the request started (a String Tomcat also hands the application). */
    public static final ObjectField<String> REQUEST_PATH = ObjectField.named(PATH);
    /** The exception a servlet or filter threw; traced requests only. */
    public static final ObjectField<Throwable> REQUEST_ERROR = ObjectField.named(ERROR);
    /** The start of a request that went async. */
    public static final LongField REQUEST_START = LongField.named(START);

    private TomcatFields() {
    }

    /** Forgets what a previous request on this recycled coyote request left. */
    public static void clear(org.apache.coyote.Request request) {
        REQUEST_SPAN.set(request, null);
        REQUEST_METHOD.set(request, null);
        REQUEST_PATH.set(request, null);
        REQUEST_ERROR.set(request, null);
        REQUEST_START.set(request, 0);
    }
}
