package io.argus.plugin.servlet;

import net.bytebuddy.asm.Advice;

/**
 * Inlined into the constructors of a container's servlet request class, only while that container's
 * own plugin (jetty, tomcat, undertow) is installed and enabled: it records every request of its
 * container, so the request is marked, and the servlet probe leaves it alone. A field write per
 * request object, or a look-up where the class has no field; nothing is allocated.
 */
public final class ContainerRecordedAdvice {

    private ContainerRecordedAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object request) {
        RequestFields.markRecordedByContainer(request);
    }
}
