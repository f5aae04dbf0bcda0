package io.argus.plugin.jedis.app;

import io.argus.testing.app.Scenarios;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Transaction;

import java.util.Arrays;

/**
 * The test application: Jedis against a real redis-server on {@code args[0]} (port), through the
 * {@code Jedis} class and {@code JedisPooled}. Each scenario runs under a hand-made server span and
 * prints {@code ROOT tag=... traceparent=...}; failures print {@code ERROR tag=... class=...}; then
 * {@code CONTEXT tag=... current=...}; {@code DONE} at the end.
 */
public final class JedisApp {

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        // spans that end before the agent has connected to the collector are dropped by design
        Thread.sleep(1500);
        try (Jedis jedis = new Jedis("127.0.0.1", port, 1000);
             JedisPooled pooled = new JedisPooled("127.0.0.1", port)) {
            Scenarios.traced("sync", () -> {
                jedis.set("user:42", "secret-value");
                jedis.get("user:42");
                jedis.hset("profile:42", "email", "someone@example.com");
                jedis.mget("user:42", "profile:missing");
                jedis.del("user:42");
            });
            Scenarios.traced("pooled", () -> {
                pooled.set("pooled:1", "secret-pooled");
                pooled.incr("counter");
            });
            Scenarios.traced("pipeline", () -> {
                Pipeline p = jedis.pipelined();
                p.set("p:1", "secret-pipelined");
                p.incr("counter");
                p.get("p:1");
                p.sync();
            });
            Scenarios.traced("transaction", () -> {
                Transaction t = jedis.multi();
                t.set("tx:1", "secret-tx");
                t.incr("counter");
                t.exec();
            });
            Scenarios.traced("error", () -> {
                try {
                    jedis.incr("pooled:1"); // a string: -ERR value is not an integer
                } catch (Exception e) {
                    Scenarios.error("error", e);
                }
            });
            Scenarios.traced("huge", () -> {
                char[] big = new char[2_000_000];
                Arrays.fill(big, 'v');
                char[] key = new char[10_000];
                Arrays.fill(key, 'k');
                jedis.set(new String(key), new String(big));
                jedis.del(new String(key));
            });
            Scenarios.traced("timeout", () -> {
                try (Jedis pauser = new Jedis("127.0.0.1", port)) {
                    pauser.clientPause(2500); // the server stalls every client for 2.5 s
                }
                try {
                    jedis.get("user:42");
                } catch (Exception e) {
                    Scenarios.error("timeout", e);
                }
            });
            Thread.sleep(2600); // the pause is over
            pooled.get("untraced"); // no parent span: metrics only
            Scenarios.afterwards("after");
            try (Jedis stopper = new Jedis("127.0.0.1", port)) {
                stopper.shutdown();
            } catch (Exception expected) {
                // the server closes the connection
            }
            Scenarios.traced("down", () -> {
                try {
                    pooled.get("user:42");
                } catch (Exception e) {
                    Scenarios.error("down", e);
                }
            });
        }
        Scenarios.print("DONE");
        Thread.sleep(Long.MAX_VALUE);
    }
}
