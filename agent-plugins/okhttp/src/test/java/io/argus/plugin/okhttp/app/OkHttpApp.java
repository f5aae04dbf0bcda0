package io.argus.plugin.okhttp.app;

import io.argus.testing.app.AgentBridge;
import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import io.argus.testing.app.Downstream;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.argus.testing.app.Downstream.plain;
import static io.argus.testing.app.Downstream.traced;

/**
 * The OkHttp application under test (compiled against 3.12.0, run with each tested 3.x, 4.x and 5.x
 * release). See {@link Downstream} for the output it prints; in addition, every asynchronous callback
 * prints {@code CALLBACK tag=<tag> thread=<name> context=<traceparent of the span current there|null>}.
 * The IT knows the calls by their tags.
 */
public final class OkHttpApp {

    public static final int PLAIN_CALLS = 4;
    public static final int ASYNC_CALLS = 3;

    private OkHttpApp() {
    }

    public static void main(String[] args) throws Exception {
        AgentBridge.await(); // this test application names the agent's bridge itself
        Downstream down = Downstream.start();
        OkHttpClient client = new OkHttpClient.Builder()
                .connectTimeout(5, TimeUnit.SECONDS)
                .readTimeout(10, TimeUnit.SECONDS)
                // an application interceptor at index 0: it proceeds on chain 1, which must not count again
                .addInterceptor(chain -> chain.proceed(chain.request().newBuilder().header("x-app", "1").build()))
                .build();

        // execute(): one client span, the header on the wire, the application's own header kept
        traced("traced", () -> send(client, get(down.url("/ok", "traced"), "traced"), "traced"));
        // enqueue(): the span ends on the dispatcher thread; the callback runs in the caller's context
        traced("async-traced", () -> sendAsync(client, get(down.url("/ok", "async-traced"), "async-traced"), "async-traced"));
        // a callback that throws: OkHttp gets the callback's own exception, as without the agent
        traced("async-throws", () -> sendAsyncThrowing(client, get(down.url("/ok", "async-throws"), "async-throws"),
                "async-throws"));
        // the application's own trace headers are replaced on the wire; its Request object is untouched
        traced("user-header", () -> {
            Request request = get(down.url("/ok", "user-header"), "user-header").newBuilder()
                    .header("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
                    .header("tracestate", "user=1").build();
            send(client, request, "user-header");
            Downstream.afterCall("user-header", request.header("traceparent"), request.header("tracestate"));
        });
        // a redirect is followed inside the chain: one call, both hops carry the header
        traced("redirect", () -> send(client, get(down.url("/redirect", "redirect"), "redirect"), "redirect"));
        traced("fail", () -> send(client, get(down.url("/fail", "fail"), "fail"), "fail"));
        // connection refused: synchronous (the exception propagates) and asynchronous (onFailure)
        traced("refused-traced", () -> send(client, get(down.refusedUrl("refused-traced"), "refused-traced"), "refused-traced"));
        traced("refused-async", () -> sendAsync(client, get(down.refusedUrl("refused-async"), "refused-async"), "refused-async"));
        plain("refused-plain", () -> send(client, get(down.refusedUrl("refused-plain"), "refused-plain"), "refused-plain"));
        // without any current span: counted, never traced, no header; the dispatcher threads that ran the
        // traced asynchronous calls carry nothing over
        for (int i = 0; i < PLAIN_CALLS; i++) {
            String tag = "plain" + i;
            plain(tag, () -> send(client, get(down.url("/ok", tag), tag), tag));
        }
        for (int i = 0; i < ASYNC_CALLS; i++) {
            String tag = "async" + i;
            plain(tag, () -> sendAsync(client, get(down.url("/ok", tag), tag), tag));
        }
        plain("missing", () -> send(client, get(down.url("/missing", "missing"), "missing"), "missing"));
        // an inbound tracestate is passed on
        Downstream.tracedWithState("tracestate", "vendor=argus",
                () -> send(client, get(down.url("/ok", "tracestate"), "tracestate"), "tracestate"));
        Downstream.finish();
    }

    private static Request get(String url, String tag) {
        return new Request.Builder().url(url).header("x-test", tag).build();
    }

    private static void send(OkHttpClient client, Request request, String tag) throws IOException {
        try (Response response = client.newCall(request).execute()) {
            Downstream.status(tag, response.code(), response.body().string());
        }
    }

    /** enqueue() and wait for the callback, which prints what it got and the context current there. */
    private static void sendAsync(OkHttpClient client, Request request, String tag) throws InterruptedException {
        CountDownLatch delivered = new CountDownLatch(1);
        client.newCall(request).enqueue(new Callback() {
            @Override
            public void onFailure(Call call, IOException e) {
                callback(tag);
                Downstream.error(tag, e);
                delivered.countDown();
            }

            @Override
            public void onResponse(Call call, Response response) throws IOException {
                try (Response r = response) {
                    callback(tag);
                    Downstream.status(tag, r.code(), r.body().string());
                } finally {
                    delivered.countDown();
                }
            }
        });
        if (!delivered.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no callback for " + tag);
        }
    }

    /**
     * enqueue() with a callback whose onResponse throws; prints the exception that reaches the
     * dispatcher thread's uncaught-exception handler ({@code UNCAUGHT}), and whether it is the very
     * object the callback threw.
     */
    private static void sendAsyncThrowing(OkHttpClient client, Request request, String tag)
            throws InterruptedException {
        CountDownLatch uncaught = new CountDownLatch(1);
        RuntimeException thrown = new IllegalStateException("thrown by the callback");
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            System.out.println("UNCAUGHT tag=" + tag + " class=" + e.getClass().getName() + " message="
                    + String.valueOf(e.getMessage()).replace(' ', '_') + " same=" + (e == thrown));
            uncaught.countDown();
        });
        try {
            client.newCall(request).enqueue(new Callback() {
                @Override
                public void onFailure(Call call, IOException e) {
                    Downstream.error(tag, e);
                }

                @Override
                public void onResponse(Call call, Response response) throws IOException {
                    try (Response r = response) {
                        callback(tag);
                        Downstream.status(tag, r.code(), r.body().string());
                    }
                    throw thrown;
                }
            });
            if (!uncaught.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the callback's exception did not reach the thread for " + tag);
            }
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
    }

    private static void callback(String tag) {
        Object context = TraceContext.current();
        System.out.println("CALLBACK tag=" + tag + " thread=" + Thread.currentThread().getName().replace(' ', '_')
                + " context=" + (context instanceof ActiveSpan ? ((ActiveSpan) context).traceparent() : null));
    }
}
