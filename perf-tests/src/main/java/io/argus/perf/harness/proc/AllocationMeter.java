package io.argus.perf.harness.proc;

import com.sun.tools.attach.VirtualMachine;

import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Bytes a running JVM allocates, read from outside through its {@code ThreadMXBean}: each thread's
 * allocated bytes ({@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}, the JVM's own
 * exact per-thread count of TLAB and outside-TLAB allocation), summed over the threads. The harness
 * attaches once (the Attach API's {@code startLocalManagementAgent}, loopback only) and reads it at
 * every round boundary; the threads of that JMX connection and of the attach mechanism are left out,
 * as their allocation is the measurement's, not the application's.
 *
 * <p>Chosen over JFR: its allocation events are sampled (about 150 a second) and its exact per-thread
 * statistics come only at chunk boundaries, while this gives every byte at the moment asked, for the
 * price of one small call per boundary. A thread that ends within a window takes its allocation
 * since the previous reading with it ({@link Window#threadsEnded}): under load the applications'
 * pools keep their threads.
 */
public final class AllocationMeter implements AutoCloseable {

    private final JMXConnector connector;
    private final com.sun.management.ThreadMXBean threads;
    /** Thread ids known to belong to the measurement (JMX, attach) rather than the application. */
    private final Set<Long> excluded = new HashSet<>();
    private final Set<Long> known = new HashSet<>();

    private AllocationMeter(JMXConnector connector, com.sun.management.ThreadMXBean threads) {
        this.connector = connector;
        this.threads = threads;
    }

    /**
     * Attaches to the JVM {@code pid} and connects to its platform MBeans.
     *
     * @throws IOException saying why not (attach refused, no management module, allocation counting off)
     */
    public static AllocationMeter attach(long pid) throws IOException {
        String address;
        try {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            try {
                address = vm.startLocalManagementAgent();
            } finally {
                vm.detach();
            }
        } catch (Exception | LinkageError e) {
            throw new IOException("cannot attach to JVM " + pid + ": " + e, e);
        }
        JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address));
        try {
            MBeanServerConnection mbeans = connector.getMBeanServerConnection();
            com.sun.management.ThreadMXBean threads = ManagementFactory.newPlatformMXBeanProxy(mbeans,
                    ManagementFactory.THREAD_MXBEAN_NAME, com.sun.management.ThreadMXBean.class);
            if (!threads.isThreadAllocatedMemorySupported() || !threads.isThreadAllocatedMemoryEnabled()) {
                throw new IOException("JVM " + pid + " does not count allocated bytes per thread");
            }
            return new AllocationMeter(connector, threads);
        } catch (IOException | RuntimeException e) {
            connector.close();
            throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
    }

    /** Thread id to bytes allocated so far, the measurement's own threads left out. */
    public Map<Long, Long> read() throws IOException {
        try {
            long[] ids = threads.getAllThreadIds();
            classify(ids);
            long[] bytes = threads.getThreadAllocatedBytes(ids);
            Map<Long, Long> out = new HashMap<>();
            for (int i = 0; i < ids.length; i++) {
                if (bytes[i] >= 0 && !excluded.contains(ids[i])) {
                    out.put(ids[i], bytes[i]);
                }
            }
            return out;
        } catch (RuntimeException e) {
            throw new IOException("reading allocated bytes failed: " + e.getMessage(), e);
        }
    }

    /** Names the threads not seen before, once: the measurement's own are excluded from then on. */
    private void classify(long[] ids) {
        long[] fresh = java.util.Arrays.stream(ids).filter(id -> !known.contains(id)).toArray();
        if (fresh.length == 0) {
            return;
        }
        ThreadInfo[] infos = threads.getThreadInfo(fresh);
        for (int i = 0; i < fresh.length; i++) {
            known.add(fresh[i]);
            if (infos[i] != null && isMeasurementThread(infos[i].getThreadName())) {
                excluded.add(fresh[i]);
            }
        }
    }

    /** The threads the JMX connection and the attach mechanism run on. */
    static boolean isMeasurementThread(String name) {
        return name.startsWith("RMI ") || name.startsWith("JMX ") || name.equals("Attach Listener")
                || name.equals("GC Daemon");
    }

    /** What the application's threads allocated between two readings. */
    public record Window(long bytes, int threadsEnded) {
    }

    public static Window between(Map<Long, Long> before, Map<Long, Long> after) {
        long sum = 0;
        for (Map.Entry<Long, Long> e : after.entrySet()) {
            long was = before.getOrDefault(e.getKey(), 0L);
            sum += Math.max(0, e.getValue() - was);
        }
        int ended = 0;
        for (Long id : before.keySet()) {
            if (!after.containsKey(id)) {
                ended++;
            }
        }
        return new Window(sum, ended);
    }

    @Override
    public void close() {
        try {
            connector.close();
        } catch (IOException ignored) {
            // the JVM is going away
        }
    }
}
