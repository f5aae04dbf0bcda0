package io.argus.plugin.lettuce.app;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.server.ServerCalls;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The test application: Lettuce against a real redis-server on {@code args[0]} (port). Each scenario
 * runs under a hand-made server span and prints {@code ROOT tag=... traceparent=...}; failures print
 * {@code ERROR tag=... class=...} (what the application caught), then {@code CONTEXT tag=...
 * current=...}; {@code DONE} at the end. Commands per (command), for the metrics: see the IT.
 */
public final class LettuceApp {

    interface Work {
        void run(StatefulRedisConnection<String, String> c) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        // spans that end before the agent has connected to the collector are dropped by design
        Thread.sleep(1500);
        RedisClient client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(port)
                .withTimeout(Duration.ofMillis(700)).build());
        client.setOptions(ClientOptions.builder().autoReconnect(true).build());
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            traced(c, "sync", conn -> {
                RedisCommands<String, String> r = conn.sync();
                r.set("user:42", "secret-value");
                r.get("user:42");
                r.hset("profile:42", "email", "someone@example.com");
                r.mget("user:42", "profile:missing");
                r.del("user:42");
            });
            traced(c, "async", conn -> {
                RedisAsyncCommands<String, String> r = conn.async();
                RedisFuture<String> set = r.set("async:1", "secret-async");
                RedisFuture<Long> incr = r.incr("counter");
                set.get(5, TimeUnit.SECONDS);
                incr.get(5, TimeUnit.SECONDS);
            });
            traced(c, "reactive", conn -> conn.reactive().get("async:1").block(Duration.ofSeconds(5)));
            traced(c, "transaction", conn -> {
                RedisCommands<String, String> r = conn.sync();
                r.multi();
                r.set("tx:1", "secret-tx");
                r.incr("counter");
                r.exec();
            });
            traced(c, "error", conn -> {
                try {
                    conn.sync().incr("async:1"); // a string: -ERR value is not an integer
                } catch (Exception e) {
                    error("error", e);
                }
            });
            traced(c, "huge", conn -> {
                char[] big = new char[2_000_000];
                Arrays.fill(big, 'v');
                char[] key = new char[10_000];
                Arrays.fill(key, 'k');
                conn.sync().set(new String(key), new String(big));
                conn.sync().del(new String(key));
            });
            traced(c, "timeout", conn -> {
                try (StatefulRedisConnection<String, String> pauser = client.connect()) {
                    pauser.sync().clientPause(1500); // the server stalls every client for 1.5 s
                    try {
                        conn.sync().get("user:42");
                    } catch (Exception e) {
                        error("timeout", e);
                    }
                }
            });
            Thread.sleep(1200); // the pause is over
            // no parent span: metrics only, and no command may pick up an old context
            c.sync().get("untraced");
            print("CONTEXT tag=after current=" + (TraceContext.current() != null));
            // the server goes away: commands fail with what Lettuce throws, in error spans
            try {
                c.sync().shutdown(false);
            } catch (Exception expected) {
                // the connection closes under the command
            }
            traced(c, "down", conn -> {
                try {
                    conn.sync().get("user:42");
                } catch (Exception e) {
                    error("down", e);
                }
            });
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        print("DONE");
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void traced(StatefulRedisConnection<String, String> c, String tag, Work work) throws Exception {
        long start = System.nanoTime();
        ActiveSpan root = ServerCalls.start("GET", "/" + tag, null, null);
        print("ROOT tag=" + tag + " traceparent=" + (root == null ? "null" : root.traceparent()));
        try {
            work.run(c);
        } finally {
            ServerCalls.end(root, start, "GET", "/" + tag, 200, null);
        }
        print("CONTEXT tag=" + tag + " current=" + (TraceContext.current() != null));
    }

    private static void error(String tag, Exception e) {
        print("ERROR tag=" + tag + " class=" + e.getClass().getName());
    }

    private static void print(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
