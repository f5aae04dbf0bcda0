package io.argus.plugin.tomcat;

/**
 * Slots of {@code org.apache.coyote.Request#setNote(int, Object)} that the advice uses. Tomcat
 * allocates the notes array ({@code MAX_NOTES} = 32) once per request processor and uses slot 1
 * ({@code CoyoteAdapter.ADAPTER_NOTES}); the slots below are unused by Tomcat 9 to 11. Notes are not
 * cleared when Tomcat recycles a request, so {@link ServiceAdvice} clears them as each request begins.
 *
 * <p>These are compile-time constants: javac copies their values into the advice, so no advice
 * refers to this class at run time.
 */
final class Notes {

    /** The catalina request Tomcat keeps with the coyote request ({@code CoyoteAdapter.ADAPTER_NOTES}). */
    static final int ADAPTER = 1;
    /** The exception a servlet threw; traced requests only. */
    static final int ERROR = 27;
    /** The request's {@code ActiveSpan}; traced requests only. */
    static final int SPAN = 28;
    /** The request path as recorded when the span started (a String Tomcat also hands the application). */
    static final int PATH = 29;
    /** The request method as recorded when the span started. */
    static final int METHOD = 30;
    /** The start time (a Long) of a request that went async; async requests only. */
    static final int START = 31;

    private Notes() {
    }
}
