package io.argus.plugin.spring;

import jakarta.servlet.http.HttpServletRequest;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code RequestMappingInfoHandlerMapping.handleMatch(info, lookupPath, request)}: on
 * return Spring has set the best matching pattern on the request, on the thread that handles it.
 */
public final class HandleMatchAdvice {

    private HandleMatchAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Argument(2) HttpServletRequest request) {
        MvcRoutes.report(request);
    }
}
