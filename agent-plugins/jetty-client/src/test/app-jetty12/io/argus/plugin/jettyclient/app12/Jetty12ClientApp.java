package io.argus.plugin.jettyclient.app12;

import io.argus.plugin.jettyclient.app.Calls;
import io.argus.testing.app.Downstream;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.StringRequestContent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The Jetty 12 test application, forked with the agent: the same calls as the Jetty 9.4 one
 * (synchronous {@code send()} and asynchronous {@code send(listener)}, with and without a current
 * span) through Jetty 12's {@code HttpClient}, against agent-testing-app's {@link Downstream} server.
 * Compiled against the oldest supported Jetty 12 and run with each tested version's jars.
 */
public final class Jetty12ClientApp {

    public static void main(String[] args) throws Exception {
        Downstream downstream = Calls.startDownstream();
        HttpClient client = new HttpClient();
        client.start();
        String base = downstream.base;
        String refused = "http://127.0.0.1:" + downstream.closedPort;

        Calls.traced("traced", () -> sync(client.newRequest(base + "/ok?tag=traced"), "traced"));
        Calls.traced("async-traced", () -> async(client.newRequest(base + "/ok?tag=async-traced"), "async-traced"));
        Calls.traced("post", () -> sync(client.newRequest(base + "/echo?tag=post").method("POST")
                .body(new StringRequestContent("payload")), "post"));
        Calls.traced("missing", () -> sync(client.newRequest(base + "/missing?tag=missing"), "missing"));
        Calls.traced("fail", () -> async(client.newRequest(base + "/fail?tag=fail"), "fail"));
        Calls.traced("refused", () -> sync(client.newRequest(refused + "/x?tag=refused"), "refused"));
        Calls.traced("async-refused", () -> async(client.newRequest(refused + "/x?tag=async-refused"), "async-refused"));
        Calls.traced("redirect", () -> sync(client.newRequest(base + "/redirect?tag=redirect"), "redirect"));
        Calls.traced("replace", () -> sync(client.newRequest(base + "/ok?tag=replace")
                .headers(h -> h.put("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")), "replace"));
        for (int i = 0; i < Calls.PLAIN_CALLS; i++) {
            sync(client.newRequest(base + "/ok?tag=plain" + i), "plain" + i);
        }
        for (int i = 0; i < Calls.ASYNC_PLAIN_CALLS; i++) {
            async(client.newRequest(base + "/ok?tag=aplain" + i), "aplain" + i);
        }
        Calls.withInboundTracestate(() -> sync(client.newRequest(base + "/ok?tag=tracestate"), "tracestate"));
        List<Future<?>> concurrent = new ArrayList<>();
        for (int t = 0; t < Calls.CONCURRENT_THREADS; t++) {
            int thread = t;
            concurrent.add(Calls.threads().submit(() -> {
                for (int i = 0; i < Calls.CONCURRENT_CALLS; i++) {
                    String tag = "conc" + thread + "_" + i;
                    boolean syncCall = i % 2 == 0;
                    Downstream.traced(tag, () -> {
                        if (syncCall) {
                            sync(client.newRequest(base + "/ok?tag=" + tag), tag);
                        } else {
                            async(client.newRequest(base + "/ok?tag=" + tag), tag);
                        }
                    });
                }
                return null;
            }));
        }
        for (Future<?> f : concurrent) {
            f.get(60, TimeUnit.SECONDS);
        }
        Downstream.finish();
    }

    private static void sync(Request request, String tag) {
        try {
            ContentResponse response = request.headers(h -> h.put("x-test", tag)).timeout(10, TimeUnit.SECONDS).send();
            Calls.status(tag, response.getStatus(), "sync", response.getContentAsString());
        } catch (ExecutionException e) {
            Downstream.error(tag, e.getCause());
        } catch (Exception e) {
            Downstream.error(tag, e);
        }
    }

    private static void async(Request request, String tag) throws Exception {
        CompletableFuture<Result> done = new CompletableFuture<>();
        String[] body = new String[1];
        request.headers(h -> h.put("x-test", tag)).send(new BufferingResponseListener() {
            @Override
            public void onComplete(Result result) {
                body[0] = getContentAsString();
                done.complete(result);
            }
        });
        Result result = done.get(30, TimeUnit.SECONDS);
        if (result.isFailed()) {
            Downstream.error(tag, result.getFailure());
        } else {
            Calls.status(tag, result.getResponse().getStatus(), "async", body[0]);
        }
    }
}
