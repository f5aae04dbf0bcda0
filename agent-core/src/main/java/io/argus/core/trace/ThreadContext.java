package io.argus.core.trace;

/**
 * What the agent keeps per application thread, in one object behind one {@code ThreadLocal}, so that
 * an operation pays one thread-local look-up whatever it reads and writes. Created the first time a
 * thread is given a context: a thread that only ever asks stays without one.
 */
public final class ThreadContext {

    /** The current span. */
    RecordedSpan current;
    /**
     * The context this thread inherited from the thread that started it, if any. Unlike a task's,
     * a thread's context may outlive its span by far (a pool or event-loop thread started during a
     * request), so it lapses when its span has ended.
     */
    RecordedSpan inherited;
    /** The route template a framework named for the server request in progress on this thread. */
    private String routeTemplate;

    ThreadContext() {
    }

    public void routeTemplate(String template) {
        routeTemplate = template;
    }

    /** The template named since the request started, cleared. */
    public String takeRouteTemplate() {
        String template = routeTemplate;
        routeTemplate = null;
        return template;
    }
}
