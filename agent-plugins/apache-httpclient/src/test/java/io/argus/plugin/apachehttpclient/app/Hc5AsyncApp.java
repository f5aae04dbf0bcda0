package io.argus.plugin.apachehttpclient.app;

import io.argus.testing.app.AgentBridge;
import io.argus.bridge.context.TraceContext;
import io.argus.testing.app.Downstream;
import org.apache.hc.client5.http.async.methods.AbstractCharResponseConsumer;
import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestProducer;
import org.apache.hc.client5.http.async.methods.SimpleResponseConsumer;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.nio.support.AsyncRequestBuilder;
import org.apache.hc.core5.util.Timeout;

import java.net.URI;
import java.nio.CharBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.argus.testing.app.Downstream.plain;
import static io.argus.testing.app.Downstream.traced;

/**
 * The HttpClient 5.x async application under test (compiled against 5.0, run with each tested 5.x
 * release). Every call goes through {@code CloseableHttpAsyncClient.execute}; the callbacks run on the
 * client's I/O reactor threads. Besides the lines of {@link Downstream} it prints
 * <ul>
 *   <li>{@code CALLBACK tag=<tag> outcome=<completed|failed|cancelled> context=<same|none|other>}: in the
 *       application's callback, the thread's trace context compared with the caller's;</li>
 *   <li>{@code CALLER tag=<tag> context=<same|none|other>}: on the calling thread, right after
 *       {@code execute} returned;</li>
 *   <li>{@code FUTURE tag=<tag> class=<exception>} or {@code cancelled=<bool>}: what the future gave.</li>
 * </ul>
 */
public final class Hc5AsyncApp {

    public static final int PLAIN_CALLS = 4;
    private static final long WAIT_SECONDS = 20;

    private Hc5AsyncApp() {
    }

    public static void main(String[] args) throws Exception {
        AgentBridge.await(); // this test application names the agent's bridge itself
        Downstream down = Downstream.start();
        RequestConfig config = RequestConfig.custom().setConnectTimeout(Timeout.ofSeconds(5))
                .setResponseTimeout(Timeout.ofSeconds(10)).build();
        CloseableHttpAsyncClient client = HttpAsyncClients.custom().setDefaultRequestConfig(config).build();
        client.start();
        CloseableHttpAsyncClient minimal = HttpAsyncClients.createMinimal();
        minimal.start();

        traced("async-traced", () -> {
            SimpleHttpRequest request = get(down.url("/ok", "async-traced"), "async-traced");
            send(client, request, "async-traced");
            afterCall("async-traced", request);
        });
        traced("async-user-header", () -> {
            SimpleHttpRequest request = get(down.url("/ok", "async-user-header"), "async-user-header");
            request.setHeader("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
            request.setHeader("tracestate", "user=1");
            send(client, request, "async-user-header");
            afterCall("async-user-header", request);
        });
        SimpleHttpRequest reused = get(down.url("/ok", "async-reuse"), "async-reuse");
        traced("async-reuse", () -> send(client, reused, "async-reuse"));
        plain("async-reuse", () -> send(client, reused, "async-reuse"));
        traced("async-producer", () -> producerAndOwnConsumer(client, down));
        traced("async-redirect", () -> send(client, get(down.url("/redirect", "async-redirect"), "async-redirect"),
                "async-redirect"));
        traced("async-fail", () -> send(client, get(down.url("/fail", "async-fail"), "async-fail"), "async-fail"));
        traced("async-minimal", () -> send(minimal, get(down.url("/ok", "async-minimal"), "async-minimal"), "async-minimal"));
        traced("async-chain", () -> chained(client, down));
        traced("async-cancel", () -> cancelled(client, down));
        traced("async-refused-traced", () -> send(client, get(down.refusedUrl("async-refused-traced"),
                "async-refused-traced"), "async-refused-traced"));
        plain("async-refused-plain", () -> send(client, get(down.refusedUrl("async-refused-plain"),
                "async-refused-plain"), "async-refused-plain"));
        for (int i = 0; i < PLAIN_CALLS; i++) {
            String tag = "async-plain" + i;
            plain(tag, () -> send(client, get(down.url("/ok", tag), tag), tag));
        }
        plain("async-missing", () -> send(client, get(down.url("/missing", "async-missing"), "async-missing"),
                "async-missing"));
        plain("async-nocallback", () -> {
            SimpleHttpResponse response = client.execute(get(down.url("/ok", "async-nocallback"), "async-nocallback"), null)
                    .get(WAIT_SECONDS, TimeUnit.SECONDS);
            Downstream.status("async-nocallback", response.getCode(), response.getBodyText());
        });
        Downstream.tracedWithState("async-tracestate", "vendor=argus",
                () -> send(client, get(down.url("/ok", "async-tracestate"), "async-tracestate"), "async-tracestate"));
        Downstream.finish();
    }

    private static SimpleHttpRequest get(String url, String tag) {
        SimpleHttpRequest request = new SimpleHttpRequest("GET", URI.create(url));
        request.setHeader("x-test", tag);
        return request;
    }

    /** {@code execute(SimpleHttpRequest, FutureCallback)}, then waits for the callback to have run. */
    private static void send(CloseableHttpAsyncClient client, SimpleHttpRequest request, String tag) throws Exception {
        Printing<SimpleHttpResponse> callback = new Printing<>(tag);
        Future<SimpleHttpResponse> future = client.execute(request, callback);
        caller(tag, callback.caller);
        callback.await();
        try {
            SimpleHttpResponse response = future.get(WAIT_SECONDS, TimeUnit.SECONDS);
            Downstream.status(tag, response.getCode(), response.getBodyText());
        } catch (ExecutionException e) {
            // the callback printed the ERROR line; the future must fail with the same exception
            System.out.println("FUTURE tag=" + tag + " class=" + e.getCause().getClass().getName());
        }
    }

    /** The producer/consumer form, with a consumer whose result is a String: the status is not in it. */
    private static void producerAndOwnConsumer(CloseableHttpAsyncClient client, Downstream down) throws Exception {
        String tag = "async-producer";
        Printing<String> callback = new Printing<>(tag);
        Future<String> future = client.execute(
                AsyncRequestBuilder.get(down.url("/ok", tag)).addHeader("x-test", tag).build(),
                new BodyText(), callback);
        caller(tag, callback.caller);
        callback.await();
        String result = future.get(WAIT_SECONDS, TimeUnit.SECONDS);
        Downstream.status(tag, Integer.parseInt(result.substring(0, 3)), result.substring(4));
    }

    /** A second request made from the first one's callback, on the I/O thread: it belongs to the same trace. */
    private static void chained(CloseableHttpAsyncClient client, Downstream down) throws Exception {
        Printing<SimpleHttpResponse> inner = new Printing<>("async-chain-inner");
        Printing<SimpleHttpResponse> outer = new Printing<SimpleHttpResponse>("async-chain") {
            @Override
            public void completed(SimpleHttpResponse result) {
                Downstream.status("async-chain", result.getCode(), result.getBodyText());
                client.execute(get(down.url("/ok", "async-chain-inner"), "async-chain-inner"), inner);
                super.completed(result);
            }
        };
        client.execute(get(down.url("/ok", "async-chain"), "async-chain"), outer);
        outer.await();
        inner.await();
    }

    /**
     * Cancels a call while the downstream server is still answering it. In the producer/consumer form:
     * 5.0's {@code execute(SimpleHttpRequest, ...)} returns a future of its own whose cancel() does not
     * reach the request (fixed in 5.1), so the request would go on and complete.
     */
    private static void cancelled(CloseableHttpAsyncClient client, Downstream down) throws Exception {
        String tag = "async-cancel";
        Printing<SimpleHttpResponse> callback = new Printing<>(tag);
        Future<SimpleHttpResponse> future = client.execute(SimpleRequestProducer.create(get(down.url("/slow", tag), tag)),
                SimpleResponseConsumer.create(), callback);
        Thread.sleep(300);
        future.cancel(true);
        callback.await();
        System.out.println("FUTURE tag=" + tag + " cancelled=" + future.isCancelled());
    }

    private static void afterCall(String tag, SimpleHttpRequest request) {
        Header traceparent = request.getFirstHeader("traceparent");
        Header tracestate = request.getFirstHeader("tracestate");
        Downstream.afterCall(tag, traceparent == null ? null : traceparent.getValue(),
                tracestate == null ? null : tracestate.getValue());
    }

    private static void caller(String tag, Object callerContext) {
        System.out.println("CALLER tag=" + tag + " context=" + compare(callerContext));
    }

    private static String compare(Object callerContext) {
        Object now = TraceContext.current();
        return now == null ? "none" : now == callerContext ? "same" : "other";
    }

    /** Prints where its callback ran and what it got; {@link #await} waits until it has. */
    private static class Printing<T> implements FutureCallback<T> {
        final String tag;
        final Object caller = TraceContext.current();
        private final CountDownLatch done = new CountDownLatch(1);

        Printing(String tag) {
            this.tag = tag;
        }

        @Override
        public void completed(T result) {
            finish("completed");
        }

        @Override
        public void failed(Exception ex) {
            Downstream.error(tag, ex);
            finish("failed");
        }

        @Override
        public void cancelled() {
            finish("cancelled");
        }

        private void finish(String outcome) {
            System.out.println("CALLBACK tag=" + tag + " outcome=" + outcome + " context=" + compare(caller)
                    + " thread=" + Thread.currentThread().getName().replace(' ', '_'));
            done.countDown();
        }

        void await() throws InterruptedException {
            if (!done.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no callback for " + tag);
            }
        }
    }

    /** Builds "status:body" from the response; the status is read in start(). */
    private static final class BodyText extends AbstractCharResponseConsumer<String> {
        private final StringBuilder text = new StringBuilder();
        private int status;

        @Override
        protected void start(HttpResponse response, ContentType contentType) {
            status = response.getCode();
        }

        @Override
        protected String buildResult() {
            return status + ":" + text;
        }

        @Override
        protected int capacityIncrement() {
            return 4096;
        }

        @Override
        protected void data(CharBuffer data, boolean endOfStream) {
            text.append(data);
        }

        @Override
        public void releaseResources() {
        }
    }
}
