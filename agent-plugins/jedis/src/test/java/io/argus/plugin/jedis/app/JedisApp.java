package io.argus.plugin.jedis.app;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.server.ServerCalls;
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

    interface Work {
        void run() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        // spans that end before the agent has connected to the collector are dropped by design
        Thread.sleep(1500);
        try (Jedis jedis = new Jedis("127.0.0.1", port, 700);
             JedisPooled pooled = new JedisPooled("127.0.0.1", port)) {
            traced("sync", () -> {
                jedis.set("user:42", "secret-value");
                jedis.get("user:42");
                jedis.hset("profile:42", "email", "someone@example.com");
                jedis.mget("user:42", "profile:missing");
                jedis.del("user:42");
            });
            traced("pooled", () -> {
                pooled.set("pooled:1", "secret-pooled");
                pooled.incr("counter");
            });
            traced("pipeline", () -> {
                Pipeline p = jedis.pipelined();
                p.set("p:1", "secret-pipelined");
                p.incr("counter");
                p.get("p:1");
                p.sync();
            });
            traced("transaction", () -> {
                Transaction t = jedis.multi();
                t.set("tx:1", "secret-tx");
                t.incr("counter");
                t.exec();
            });
            traced("error", () -> {
                try {
                    jedis.incr("pooled:1"); // a string: -ERR value is not an integer
                } catch (Exception e) {
                    error("error", e);
                }
            });
            traced("huge", () -> {
                char[] big = new char[2_000_000];
                Arrays.fill(big, 'v');
                char[] key = new char[10_000];
                Arrays.fill(key, 'k');
                jedis.set(new String(key), new String(big));
                jedis.del(new String(key));
            });
            traced("timeout", () -> {
                try (Jedis pauser = new Jedis("127.0.0.1", port)) {
                    pauser.clientPause(1500); // the server stalls every client for 1.5 s
                }
                try {
                    jedis.get("user:42");
                } catch (Exception e) {
                    error("timeout", e);
                }
            });
            Thread.sleep(1200); // the pause is over
            pooled.get("untraced"); // no parent span: metrics only
            print("CONTEXT tag=after current=" + (TraceContext.current() != null));
            try (Jedis stopper = new Jedis("127.0.0.1", port)) {
                stopper.shutdown();
            } catch (Exception expected) {
                // the server closes the connection
            }
            traced("down", () -> {
                try {
                    pooled.get("user:42");
                } catch (Exception e) {
                    error("down", e);
                }
            });
        }
        print("DONE");
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void traced(String tag, Work work) throws Exception {
        long start = System.nanoTime();
        ActiveSpan root = ServerCalls.start("GET", "/" + tag, null, null);
        print("ROOT tag=" + tag + " traceparent=" + (root == null ? "null" : root.traceparent()));
        try {
            work.run();
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
