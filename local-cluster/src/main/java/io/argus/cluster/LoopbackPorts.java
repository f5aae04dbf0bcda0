package io.argus.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Collection;
import java.util.concurrent.ThreadLocalRandom;

/** Ports on 127.0.0.1 that are free now, for servers that must be told their port before they start. */
public final class LoopbackPorts {

    private LoopbackPorts() {
    }

    /** A port the system hands out as free. */
    public static int free() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** A free port not among {@code taken}; it is added to them. */
    public static int free(Collection<Integer> taken) throws IOException {
        while (true) {
            int p = free();
            if (!taken.contains(p)) {
                taken.add(p);
                return p;
            }
        }
    }

    /** A block of {@code n} consecutive ports that are free now and not among {@code taken}; they are added to them. */
    public static int freeRange(Collection<Integer> taken, int n) throws IOException {
        for (int attempt = 0; attempt < 200; attempt++) {
            int start = ThreadLocalRandom.current().nextInt(20_000, 30_000);
            boolean ok = true;
            for (int p = start; p < start + n && ok; p++) {
                ok = !taken.contains(p) && isFree(p);
            }
            if (ok) {
                for (int p = start; p < start + n; p++) {
                    taken.add(p);
                }
                return start;
            }
        }
        throw new IOException("found no " + n + " consecutive free ports");
    }

    private static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
