package io.argus.perf.jmh;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/1.1 with keep-alive on loopback, one thread per connection: reads a request head (the
 * client sends no body), answers {@code 200} with a two-byte body. Reuses its buffers, so it
 * allocates nothing per request.
 */
final class TinyHttpServer implements AutoCloseable {
    private static final byte[] RESPONSE = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
            + "Content-Length: 2\r\n\r\nok").getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket socket;

    private TinyHttpServer(ServerSocket socket) {
        this.socket = socket;
    }

    static TinyHttpServer start() throws IOException {
        TinyHttpServer server = new TinyHttpServer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
        Thread acceptor = new Thread(server::accept, "tiny-http-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        return server;
    }

    int port() {
        return socket.getLocalPort();
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket connection = socket.accept();
                connection.setTcpNoDelay(true);
                Thread worker = new Thread(() -> serve(connection), "tiny-http-" + connection.getPort());
                worker.setDaemon(true);
                worker.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private static void serve(Socket connection) {
        byte[] buffer = new byte[16 * 1024];
        try (Socket s = connection; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            int filled = 0;
            while (true) {
                int n = in.read(buffer, filled, buffer.length - filled);
                if (n < 0) {
                    return;
                }
                filled += n;
                int end;
                while ((end = headEnd(buffer, filled)) >= 0) {
                    out.write(RESPONSE);
                    out.flush();
                    System.arraycopy(buffer, end, buffer, 0, filled - end);
                    filled -= end;
                }
                if (filled == buffer.length) {
                    return;
                }
            }
        } catch (IOException gone) {
            // the client closed the connection
        }
    }

    /** The index just past the first "\r\n\r\n", or -1. */
    private static int headEnd(byte[] b, int length) {
        for (int i = 3; i < length; i++) {
            if (b[i] == '\n' && b[i - 1] == '\r' && b[i - 2] == '\n' && b[i - 3] == '\r') {
                return i + 1;
            }
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
