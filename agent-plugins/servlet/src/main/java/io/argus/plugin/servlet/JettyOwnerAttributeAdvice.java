package io.argus.plugin.servlet;

import net.bytebuddy.asm.Advice;

/**
 * Inlined into the {@code getAttribute(String)} of Jetty's servlet request classes, only while the
 * jetty plugin is installed and enabled: when the request has no attribute
 * {@code io.argus.server.owner}, it answers {@code "jetty"}, as the tomcat and undertow plugins do for
 * their containers. The servlet probe then leaves the request to the jetty plugin, which records every
 * Jetty request at the container level. Nothing is stored per request; for other names this costs a
 * null check (and a String comparison only when the attribute is absent).
 */
public final class JettyOwnerAttributeAdvice {

    private JettyOwnerAttributeAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Argument(0) String name, @Advice.Return(readOnly = false) Object value) {
        if (value == null && "io.argus.server.owner".equals(name)) {
            value = "jetty";
        }
    }
}
