package io.argus.plugin.tomcat;

import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code org.apache.catalina.connector.Request#getAttribute(String)}: when the request
 * has no attribute {@code io.argus.server.owner}, it answers {@code "tomcat"}.
 *
 * <p>This is how the servlet plugin learns, without anything being stored per request, that this
 * plugin records every request of this Tomcat: it asks {@code getAttribute("io.argus.server.owner")}
 * and leaves the request alone when the answer is not null. The attribute exists only while this
 * plugin is active, and is not listed by {@code getAttributeNames()}. For every other name this
 * costs one null check (and a String comparison only when the attribute is absent).
 */
public final class OwnerAttributeAdvice {

    private OwnerAttributeAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Argument(0) String name, @Advice.Return(readOnly = false) Object value) {
        if (value == null && "io.argus.server.owner".equals(name)) {
            value = "tomcat";
        }
    }
}
