package io.argus.plugin.apachehttpclient.v5;

import io.argus.plugin.apachehttpclient.v5.async.AsyncClientCall;
import io.argus.plugin.apachehttpclient.v5.async.ObservedRequestProducer;
import io.argus.plugin.apachehttpclient.v5.async.ObservedResponseConsumer;
import net.bytebuddy.asm.Advice;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.nio.AsyncRequestProducer;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;

/**
 * Inlined into {@code doExecute(HttpHost, AsyncRequestProducer, AsyncResponseConsumer, HandlerFactory,
 * HttpContext, FutureCallback)} of HttpClient 5's async clients ({@code InternalAbstractHttpAsyncClient}:
 * {@code HttpAsyncClients.createDefault()}, {@code custom()}, the HTTP/2 client; and
 * {@code AbstractMinimalHttpAsyncClientBase}: the minimal clients), the one method every
 * {@code execute(...)} overload of {@code CloseableHttpAsyncClient} ends in, once per request.
 *
 * <p>The request completes later, on an I/O reactor thread, so enter replaces three arguments with the
 * plugin's helper classes, which the engine has defined in this class's loader: the callback (the
 * {@link AsyncClientCall} that records the request on completion and then calls the original), the
 * request producer (to learn the request, and send a traced one with the trace headers) and the
 * response consumer (to learn the status). Untraced, that is these three small objects and nothing else.
 * Exit only covers a {@code doExecute} that throws before the library took over the callback.
 *
 * <p>Advice code is copied into the library class: it may use only the bridge, the JDK, HttpClient and
 * the helper classes, no helper methods of this class, no lambdas.
 */
public final class AsyncDoExecuteAdvice {

    private AsyncDoExecuteAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(0) HttpHost target,
                             @Advice.Argument(value = 1, readOnly = false) AsyncRequestProducer producer,
                             @Advice.Argument(value = 2, readOnly = false) AsyncResponseConsumer<?> consumer,
                             @Advice.Argument(value = 5, readOnly = false) FutureCallback<?> callback) {
        if (producer == null || consumer == null) {
            return;
        }
        AsyncClientCall call = new AsyncClientCall(target, callback);
        ObservedRequestProducer observedProducer = new ObservedRequestProducer(producer, call);
        @SuppressWarnings({"rawtypes", "unchecked"})
        ObservedResponseConsumer<?> observedConsumer = new ObservedResponseConsumer(consumer, call);
        // all or nothing: the arguments change only once every object exists
        producer = observedProducer;
        consumer = observedConsumer;
        callback = call;
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Argument(5) FutureCallback<?> callback, @Advice.Thrown Throwable thrown) {
        if (thrown != null && callback instanceof AsyncClientCall) {
            ((AsyncClientCall) callback).executeThrew(thrown);
        }
    }
}
