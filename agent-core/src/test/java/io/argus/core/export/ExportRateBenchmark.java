package io.argus.core.export;

import io.argus.core.AgentCounters;
import io.argus.core.config.AgentConfig;
import io.argus.core.config.AgentSettings;
import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.Sampler;
import io.argus.core.trace.Tracer;
import io.argus.protocol.Frame;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.KeyStore;
import java.util.HashMap;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * Manual check of what the exporter puts on the wire at a given span rate (not run by {@code mvn test}): span
 * frames per second, spans per frame, and the exporter thread's CPU time (per second and per span), with the
 * default settings unless {@code -Dargus.exporter.*} says otherwise.
 *
 * <p>With {@code tls} as third argument the fake collector serves TLS from the PKCS#12 keystore
 * {@code -Dbench.tls.keystore} (password {@code -Dbench.tls.password}) and the exporter connects with
 * {@code argus.collector.tls}, trusting {@code -Dargus.collector.tls.trustStore}; see docs/benchmarks.md.
 *
 * <pre>
 * mvn -q -o -pl agent-core test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * cd agent-core
 * java -cp target/test-classes:target/classes:$(cat target/cp.txt) \
 *      io.argus.core.export.ExportRateBenchmark [spansPerSecond=5000] [seconds=10] [plain|tls]
 * </pre>
 */
public final class ExportRateBenchmark {

    public static void main(String[] args) throws Exception {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        boolean tls = args.length > 2 && args[2].equals("tls");
        final AtomicLong frames = new AtomicLong();
        final AtomicLong spans = new AtomicLong();
        final ServerSocket server = tls ? tlsServerContext().getServerSocketFactory().createServerSocket(0, 5,
                InetAddress.getLoopbackAddress()) : new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        Thread reader = new Thread(new Runnable() {
            @Override
            public void run() {
                try (Socket s = server.accept()) {
                    DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 1 << 16));
                    while (true) {
                        byte[] body = new byte[in.readInt()];
                        in.readFully(body);
                        Frame frame = Frame.parseFrom(body);
                        if (frame.hasSpans()) {
                            spans.addAndGet(frame.getSpans().getSpansCount());
                            frames.incrementAndGet();
                        }
                    }
                } catch (IOException end) {
                    // closed
                }
            }
        }, "fake-collector");
        reader.setDaemon(true);
        reader.start();

        Properties props = new Properties();
        props.setProperty("argus.collector.address", "127.0.0.1:" + server.getLocalPort());
        props.setProperty("argus.collector.tls", Boolean.toString(tls));
        AgentSettings settings = new AgentSettings(new AgentConfig(System.getProperties(),
                new HashMap<String, String>(), props));
        AgentCounters counters = new AgentCounters();
        SpanQueue queue = new SpanQueue(settings.queueSize, counters);
        Tracer tracer = new Tracer(new Sampler(100), queue);
        Exporter exporter = new Exporter(settings, queue, new CallMetricsTable(10), new CallMetricsTable(10), counters,
                "bench");
        exporter.start();
        Thread.sleep(1000); // connected, handshake sent

        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long exporterId = -1;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("argus-exporter")) {
                exporterId = t.getId();
            }
        }
        long cpu0 = threads.getThreadCpuTime(exporterId);
        long frames0 = frames.get();
        long spans0 = spans.get();
        long total = (long) rate * seconds;
        long period = 1_000_000_000L / rate;
        long start = System.nanoTime();
        long next = start;
        for (long i = 0; i < total; i++) {
            long wait = next - System.nanoTime();
            if (wait > 50_000) {
                LockSupport.parkNanos(wait);
            }
            RecordedSpan span = tracer.startServer("GET", "/bench", null, null, null);
            tracer.end(span, System.nanoTime(), null, false);
            next += period;
        }
        long elapsed = System.nanoTime() - start;
        long cpu = threads.getThreadCpuTime(exporterId) - cpu0;
        long f = frames.get() - frames0;
        long n = spans.get() - spans0;
        double secondsRun = elapsed / 1e9;
        System.out.printf("%s: offered %,d spans/s for %.1f s (batchSize %d): %.1f span frames/s, %.1f spans/frame,"
                        + " exporter thread CPU %.1f ms/s, %.3f us/span, dropped %d%n", tls ? "tls" : "plain", rate,
                secondsRun, settings.batchSize, f / secondsRun, f == 0 ? 0.0 : (double) n / f, cpu / 1e6 / secondsRun,
                n == 0 ? 0.0 : cpu / 1e3 / n, counters.droppedSpans.get());
        exporter.shutdown(1000);
        server.close();
    }

    private static SSLContext tlsServerContext() throws Exception {
        char[] password = System.getProperty("bench.tls.password", "").toCharArray();
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(System.getProperty("bench.tls.keystore"))) {
            keys.load(in, password);
        }
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(keys, password);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(factory.getKeyManagers(), null, null);
        return context;
    }
}
