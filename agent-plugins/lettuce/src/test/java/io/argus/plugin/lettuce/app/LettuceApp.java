package io.argus.plugin.lettuce.app;

import io.argus.testing.app.Scenarios;
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

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        // spans that end before the agent has connected to the collector are dropped by design
        Thread.sleep(1500);
        // connecting may take long on a loaded machine; the commands time out after 1 s
        RedisClient client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(port)
                .withTimeout(Duration.ofSeconds(10)).build());
        client.setOptions(ClientOptions.builder().autoReconnect(true).build());
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            c.setTimeout(Duration.ofSeconds(1));
            Scenarios.traced("sync", () -> {
                RedisCommands<String, String> r = c.sync();
                r.set("user:42", "secret-value");
                r.get("user:42");
                r.hset("profile:42", "email", "someone@example.com");
                r.mget("user:42", "profile:missing");
                r.del("user:42");
            });
            Scenarios.traced("async", () -> {
                RedisAsyncCommands<String, String> r = c.async();
                RedisFuture<String> set = r.set("async:1", "secret-async");
                RedisFuture<Long> incr = r.incr("counter");
                set.get(5, TimeUnit.SECONDS);
                incr.get(5, TimeUnit.SECONDS);
            });
            Scenarios.traced("reactive", () -> c.reactive().get("async:1").block(Duration.ofSeconds(5)));
            Scenarios.traced("transaction", () -> {
                RedisCommands<String, String> r = c.sync();
                r.multi();
                r.set("tx:1", "secret-tx");
                r.incr("counter");
                r.exec();
            });
            Scenarios.traced("error", () -> {
                try {
                    c.sync().incr("async:1"); // a string: -ERR value is not an integer
                } catch (Exception e) {
                    Scenarios.error("error", e);
                }
            });
            Scenarios.traced("huge", () -> {
                char[] big = new char[2_000_000];
                Arrays.fill(big, 'v');
                char[] key = new char[10_000];
                Arrays.fill(key, 'k');
                c.sync().set(new String(key), new String(big));
                c.sync().del(new String(key));
            });
            Scenarios.traced("timeout", () -> {
                try (StatefulRedisConnection<String, String> pauser = client.connect()) {
                    pauser.sync().clientPause(2500); // the server stalls every client for 2.5 s
                    try {
                        c.sync().get("user:42");
                    } catch (Exception e) {
                        Scenarios.error("timeout", e);
                    }
                }
            });
            Thread.sleep(2600); // the pause is over
            // no parent span: metrics only, and no command may pick up an old context
            c.sync().get("untraced");
            Scenarios.afterwards("after");
            // the server goes away: commands fail with what Lettuce throws, in error spans
            try {
                c.sync().shutdown(false);
            } catch (Exception expected) {
                // the connection closes under the command
            }
            Scenarios.traced("down", () -> {
                try {
                    c.sync().get("user:42");
                } catch (Exception e) {
                    Scenarios.error("down", e);
                }
            });
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        Scenarios.print("DONE");
        Thread.sleep(Long.MAX_VALUE);
    }
}
