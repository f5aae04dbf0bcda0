package io.argus.testing;

import de.bwaldvogel.mongo.ServerVersion;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

import java.net.InetSocketAddress;

/**
 * A MongoDB wire-protocol server in this JVM on a free loopback port: de.bwaldvogel's
 * mongo-java-server with its in-memory backend, answering as MongoDB 5.0 (no MongoDB server is
 * packaged for Debian, and none can be downloaded here; see docs/plugins.md). The plugin modules that
 * use it add {@code de.bwaldvogel:mongo-java-server-memory-backend} to their test class path.
 */
public final class MongoServer implements AutoCloseable {

    private final de.bwaldvogel.mongo.MongoServer server;
    private final InetSocketAddress address;

    private MongoServer(de.bwaldvogel.mongo.MongoServer server, InetSocketAddress address) {
        this.server = server;
        this.address = address;
    }

    public static MongoServer start() {
        de.bwaldvogel.mongo.MongoServer server =
                new de.bwaldvogel.mongo.MongoServer(new MemoryBackend().version(ServerVersion.MONGO_5_0));
        server.bind(new InetSocketAddress("127.0.0.1", 0));
        return new MongoServer(server, server.getLocalAddress());
    }

    public int port() {
        return address.getPort();
    }

    /** {@code mongodb://127.0.0.1:port}, for a client. */
    public String connectionString() {
        return "mongodb://127.0.0.1:" + port();
    }

    /** Stops it at once: open connections are closed under their clients. */
    @Override
    public void close() {
        server.shutdownNow();
    }
}
