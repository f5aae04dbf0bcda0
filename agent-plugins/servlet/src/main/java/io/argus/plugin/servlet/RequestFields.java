package io.argus.plugin.servlet;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.state.LongField;
import io.argus.bridge.state.ObjectField;

/**
 * The state this plugin keeps on a container's own servlet request object (the one under any
 * wrappers), declared on each known container's request class; other containers' requests keep it in
 * the bridge's map. Uses no servlet type, so one class serves both namespaces. A helper class.
 */
public final class RequestFields {

    static final String CONTAINER_RECORDED = "servlet.container-recorded";
    static final String SPAN = "servlet.span";
    static final String START = "servlet.start";
    static final String PATH = "servlet.path";
    static final String ERROR = "servlet.error";

    /**
     * Set when the request object is made, while the container's own plugin records its requests (see
     * {@link #markRecordedByContainer}).
     */
    public static final ObjectField<Boolean> RECORDED_BY_CONTAINER = ObjectField.named(CONTAINER_RECORDED);
    /** The span of a request this plugin traces. */
    public static final ObjectField<ActiveSpan> REQUEST_SPAN = ObjectField.named(SPAN);
    /** The start of a request this plugin records that went async. */
    public static final LongField REQUEST_START = LongField.named(START);
    /** The path of a request this plugin records that went async, as recorded when it started. */
    public static final ObjectField<String> REQUEST_PATH = ObjectField.named(PATH);
    /** What {@code AsyncListener.onError} reported for a traced async request. */
    public static final ObjectField<Throwable> REQUEST_ERROR = ObjectField.named(ERROR);

    private RequestFields() {
    }

    /**
     * Marks a request its container's plugin records: on the request's own field, or, where its class
     * loaded before the agent was up and has none, on its class (one map entry per class, not per request).
     */
    public static void markRecordedByContainer(Object request) {
        if (!RECORDED_BY_CONTAINER.setIfRealField(request, Boolean.TRUE)) {
            Class<?> type = request.getClass();
            if (RECORDED_BY_CONTAINER.get(type) == null) {
                RECORDED_BY_CONTAINER.set(type, Boolean.TRUE);
            }
        }
    }

    /**
     * Whether another recorder has the request: a container plugin, or an outer call of this probe. The
     * class goes first: where it is marked, the request object's own identity is never hashed for a
     * look-up; where nothing is, that map is empty and the check is one volatile read.
     */
    public static boolean recordedElsewhere(Object request) {
        return RECORDED_BY_CONTAINER.get(request.getClass()) != null || RECORDED_BY_CONTAINER.get(request) != null
                || REQUEST_SPAN.get(request) != null;
    }
}
