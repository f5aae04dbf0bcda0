package io.argus.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} (Debian's package, installed by {@code .ci/run}) on a free loopback
 * port, without persistence, in a throw-away folder. Installs nothing: a machine without
 * {@code /usr/bin/redis-server} gets a clear error naming the package.
 */
public final class RedisServer implements AutoCloseable {

    public static final Path BINARY = Paths.get(System.getProperty("argus.test.redis", "/usr/bin/redis-server"));

    private final Process process;
    private final int port;
    private final Path dir;

    private RedisServer(Process process, int port, Path dir) {
        this.process = process;
        this.port = port;
        this.dir = dir;
    }

    /** Starts a server and waits until it answers {@code PING}; retries on another port if one was taken meanwhile. */
    public static RedisServer start() {
        if (!Files.isExecutable(BINARY)) {
            throw new IllegalStateException(BINARY + " is missing: install Debian's redis-server package"
                    + " (apt-get install redis-server; .ci/run does)");
        }
        IllegalStateException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return startOnce(TestCollector.freePort());
            } catch (IllegalStateException e) {
                last = e;
            }
        }
        throw last;
    }

    private static RedisServer startOnce(int port) {
        Path dir;
        try {
            dir = Files.createTempDirectory("argus-redis");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> command = new ArrayList<>(List.of(BINARY.toString(),
                "--port", String.valueOf(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--dir", dir.toString(), "--daemonize", "no", "--protected-mode", "yes", "--loglevel", "warning"));
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("redis.log").toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + BINARY, e);
        }
        RedisServer server = new RedisServer(process, port, dir);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server exited with " + process.exitValue() + ": " + server.log());
            }
            try {
                if ("+PONG".equals(server.command("PING"))) {
                    return server;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            sleep(50);
        }
        server.close();
        throw new IllegalStateException("redis-server did not answer PING on port " + port + ": " + server.log());
    }

    public int port() {
        return port;
    }

    public String host() {
        return "127.0.0.1";
    }

    /** {@code redis://127.0.0.1:port}: the target the agent's metrics name this server by. */
    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /**
     * Sends one command on a connection of its own and returns the first line of the reply, e.g.
     * {@code command("CLIENT", "PAUSE", "3000")} to make the server stall every client for 3 s.
     */
    public String command(String... args) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5000);
            StringBuilder request = new StringBuilder("*").append(args.length).append("\r\n");
            for (String arg : args) {
                request.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(arg).append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            int c;
            while ((c = in.read()) >= 0 && c != '\r') {
                line.append((char) c);
            }
            return line.toString();
        }
    }

    private String log() {
        try {
            return Files.readString(dir.resolve("redis.log"));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    /** Stops the server (SIGTERM, then forcibly) and removes its folder. */
    @Override
    public void close() {
        Processes.stop(process);
        TempFolders.delete(dir);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
