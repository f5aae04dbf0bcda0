package io.argus.plugin.reactornetty;

import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into the constructor of {@code HttpClientConnect$HttpClientHandler}, which {@code HttpClient} makes once per
 * subscription, on the thread that subscribes: a context current there (a request's event loop, a scheduler's task
 * the reactor plugin carried it to) is kept on the handler for the requests it sends, with the time, for a call that
 * never gets a connection. The handler is a {@code SocketAddress}, serializable without a {@code serialVersionUID},
 * so it gets no fields of its own and these go to the plugin API's map: only when traced. Untraced: a thread-local
 * read.
 */
public final class HandlerCreatedAdvice {

    private HandlerCreatedAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object handler) {
        Object context = TraceContext.current();
        if (context != null) {
            ReactorNettyCalls.CONTEXT.set(handler, context);
            ReactorNettyCalls.SUBSCRIBED.set(handler, System.nanoTime());
        }
    }
}
