package io.argus.perf.jmh;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.bson.Document;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.redisson.Redisson;
import org.redisson.api.RBucket;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import redis.clients.jedis.Jedis;

import java.io.File;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Data store calls in JVMs without the agent, at 0% and at 100% (see {@link ProbeCostMain}); the lettuce,
 * jedis, redisson and mongodb plugins' probes run on every call:
 * <ul>
 *   <li>{@link #lettuceGet}: a synchronous {@code GET} with Lettuce (its event loop completes the command);</li>
 *   <li>{@link #jedisGet}: a {@code GET} with Jedis on the benchmark thread;</li>
 *   <li>{@link #redissonGet}: {@code RBucket.get()} with Redisson (sent from the benchmark thread, the reply
 *       completed on Netty's event loop);</li>
 *   <li>{@link #mongoFindOne}: {@code find(_id).first()} with the sync driver against mongo-java-server in this
 *       JVM (its allocations count too, alike in every configuration).</li>
 * </ul>
 * Redis is Debian's {@code redis-server} ({@code /usr/bin/redis-server}), started on a free loopback port
 * without persistence. At 100% the benchmark thread holds an open server span, so every call is traced.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DataStoreClientBenchmark {

    private Process redis;
    private Path redisDir;
    private RedisClient lettuce;
    private StatefulRedisConnection<String, String> lettuceConnection;
    private RedisCommands<String, String> lettuceCommands;
    private Jedis jedis;
    private RedissonClient redisson;
    private RBucket<String> redissonBucket;
    private MongoServer mongoServer;
    private MongoClient mongo;
    private MongoCollection<Document> products;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        redisDir = Files.createTempDirectory("bench-redis");
        redis = new ProcessBuilder("/usr/bin/redis-server", "--port", String.valueOf(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", redisDir.toString())
                .redirectErrorStream(true).redirectOutput(new File(redisDir.toFile(), "redis.log")).start();
        jedis = awaitRedis(port);
        jedis.set("bench:key", "value");
        lettuce = RedisClient.create("redis://127.0.0.1:" + port);
        lettuceConnection = lettuce.connect();
        lettuceCommands = lettuceConnection.sync();
        Config redissonConfig = new Config();
        redissonConfig.setCodec(StringCodec.INSTANCE);
        redissonConfig.useSingleServer().setAddress("redis://127.0.0.1:" + port).setConnectionMinimumIdleSize(1)
                .setConnectionPoolSize(1);
        redisson = Redisson.create(redissonConfig);
        redissonBucket = redisson.getBucket("bench:key");

        mongoServer = new MongoServer(new MemoryBackend());
        InetSocketAddress address = mongoServer.bind();
        mongo = MongoClients.create("mongodb://127.0.0.1:" + address.getPort());
        products = mongo.getDatabase("bench").getCollection("products");
        products.insertOne(new Document("_id", 1).append("name", "apple"));
        if (Boolean.getBoolean("bench.openSpan")) {
            ProbeCostBenchmark.openServerSpan();
        }
    }

    private static Jedis awaitRedis(int port) throws InterruptedException {
        for (int attempt = 0; attempt < 200; attempt++) {
            try {
                Jedis client = new Jedis("127.0.0.1", port);
                client.ping();
                return client;
            } catch (RuntimeException notYet) {
                Thread.sleep(25);
            }
        }
        throw new IllegalStateException("redis-server did not answer on port " + port);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        lettuceConnection.close();
        lettuce.shutdown();
        jedis.close();
        redisson.shutdown();
        mongo.close();
        mongoServer.shutdownNow();
        redis.destroy();
        redis.waitFor(10, TimeUnit.SECONDS);
        for (Path p : List.of(redisDir.resolve("redis.log"), redisDir)) {
            Files.deleteIfExists(p);
        }
    }

    @Benchmark
    public String lettuceGet() {
        return lettuceCommands.get("bench:key");
    }

    @Benchmark
    public String jedisGet() {
        return jedis.get("bench:key");
    }

    @Benchmark
    public String redissonGet() {
        return redissonBucket.get();
    }

    @Benchmark
    public Object mongoFindOne() {
        return products.find(Filters.eq("_id", 1)).first();
    }
}
