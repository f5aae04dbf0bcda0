package io.argus.plugin.redisson.app;

import io.argus.testing.app.Scenarios;
import org.redisson.Redisson;
import org.redisson.api.RAtomicLong;
import org.redisson.api.RBatch;
import org.redisson.api.RBucket;
import org.redisson.api.RFuture;
import org.redisson.api.RMap;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

import java.time.Duration;
import java.util.Collections;
import java.util.concurrent.TimeUnit;

/**
 * The test application: Redisson against a real redis-server on {@code args[0]} (port). Each scenario runs under a
 * hand-made server span and prints {@code ROOT tag=... traceparent=...}; failures print {@code ERROR tag=...
 * class=...} (what the application caught), then {@code CONTEXT tag=... current=...}; {@code DONE} at the end.
 * Commands per (command), for the metrics: see the IT.
 */
public final class RedissonApp {

    /** Holds the server for 2 s: the command that runs it times out after 1 s. */
    static final String BUSY_SCRIPT = "local s = redis.call('TIME') "
            + "while true do local n = redis.call('TIME') "
            + "if (n[1] - s[1]) * 1000000 + (n[2] - s[2]) > 2000000 then return 1 end end";

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        // spans that end before the agent has connected to the collector are dropped by design
        Thread.sleep(1500);
        Config config = new Config();
        config.setCodec(StringCodec.INSTANCE);
        config.useSingleServer().setAddress("redis://127.0.0.1:" + port).setTimeout(1000).setRetryAttempts(0)
                .setConnectionMinimumIdleSize(1).setConnectionPoolSize(2).setPingConnectionInterval(0);
        RedissonClient redisson = Redisson.create(config);
        try {
            Scenarios.traced("sync", () -> {
                RBucket<String> user = redisson.getBucket("user:42");
                user.set("secret-value");
                user.get();
                RMap<String, String> profile = redisson.getMap("profile:42");
                profile.fastPut("email", "someone@example.com");
                redisson.getBuckets().get("user:42", "profile:missing");
                user.delete();
            });
            Scenarios.traced("async", () -> {
                RFuture<Void> set = redisson.<String>getBucket("async:1").setAsync("secret-async");
                RFuture<Long> incr = redisson.getAtomicLong("counter").incrementAndGetAsync();
                set.get(5, TimeUnit.SECONDS);
                incr.get(5, TimeUnit.SECONDS);
            });
            Scenarios.traced("reactive", () -> redisson.reactive().<String>getBucket("async:1").get()
                    .block(Duration.ofSeconds(5)));
            Scenarios.traced("batch", () -> {
                RBatch batch = redisson.createBatch();
                batch.<String>getBucket("batch:1").setAsync("secret-batch");
                batch.getAtomicLong("counter").incrementAndGetAsync();
                batch.execute();
            });
            Scenarios.traced("error", () -> {
                RAtomicLong notANumber = redisson.getAtomicLong("async:1"); // a string: -ERR value is not an integer
                try {
                    notANumber.incrementAndGet();
                } catch (Exception e) {
                    Scenarios.error("error", e);
                }
            });
            // loaded first, untraced: how eval runs a script differs between releases, evalSha does not
            String busy = redisson.getScript().scriptLoad(BUSY_SCRIPT);
            Scenarios.traced("timeout", () -> {
                try {
                    redisson.getScript().evalSha(RScript.Mode.READ_WRITE, busy, RScript.ReturnType.BOOLEAN,
                            Collections.emptyList());
                } catch (Exception e) {
                    Scenarios.error("timeout", e);
                }
            });
            Thread.sleep(1500); // the script is over
            // no parent span: metrics only, and no command may pick up an old context
            redisson.getBucket("untraced").get();
            Scenarios.afterwards("after");
        } finally {
            redisson.shutdown(0, 2, TimeUnit.SECONDS);
        }
        Scenarios.print("DONE");
        Thread.sleep(Long.MAX_VALUE);
    }
}
