package io.argus.plugin.undertow;

import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code io.undertow.servlet.spec.HttpServletRequestImpl#getAttribute(String)}: when the
 * request has no attribute {@code io.argus.server.owner}, it answers {@code "undertow"}. The servlet
 * plugin asks for this attribute and leaves requests that have an owner to the owner's plugin; nothing
 * is stored per request, and the attribute exists only while this plugin is active. The class has the
 * same name in undertow-servlet 2.2 (javax.servlet) and 2.3 (jakarta.servlet), and the advice uses no
 * servlet type.
 */
public final class OwnerAttributeAdvice {

    private OwnerAttributeAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Argument(0) String name, @Advice.Return(readOnly = false) Object value) {
        if (value == null && "io.argus.server.owner".equals(name)) {
            value = "undertow";
        }
    }
}
