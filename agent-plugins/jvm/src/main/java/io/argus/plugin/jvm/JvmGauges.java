package io.argus.plugin.jvm;

import io.argus.core.plugin.GaugeSource;

import java.lang.management.ClassLoadingMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.RuntimeMXBean;
import java.lang.management.ThreadMXBean;
import java.util.List;

/**
 * Reads the platform MXBeans on the exporter thread. They are looked up on the first sample, not
 * at start-up, so that the JMX classes load off the application's start-up path.
 */
final class JvmGauges implements GaugeSource {

    private MemoryMXBean memory;
    private List<GarbageCollectorMXBean> collectors;
    private ThreadMXBean threads;
    private ClassLoadingMXBean classes;
    private RuntimeMXBean runtime;
    private OperatingSystemMXBean os;

    @Override
    public void sample(GaugeSink sink) {
        if (memory == null) {
            memory = ManagementFactory.getMemoryMXBean();
            collectors = ManagementFactory.getGarbageCollectorMXBeans();
            threads = ManagementFactory.getThreadMXBean();
            classes = ManagementFactory.getClassLoadingMXBean();
            runtime = ManagementFactory.getRuntimeMXBean();
            os = ManagementFactory.getOperatingSystemMXBean();
        }
        MemoryUsage heap = memory.getHeapMemoryUsage();
        sink.gauge("jvm.heap.used", heap.getUsed());
        sink.gauge("jvm.heap.committed", heap.getCommitted());
        if (heap.getMax() >= 0) {
            sink.gauge("jvm.heap.max", heap.getMax());
        }
        MemoryUsage nonHeap = memory.getNonHeapMemoryUsage();
        sink.gauge("jvm.nonheap.used", nonHeap.getUsed());
        sink.gauge("jvm.nonheap.committed", nonHeap.getCommitted());

        for (GarbageCollectorMXBean gc : collectors) {
            String name = "jvm.gc." + gc.getName().replace(' ', '_');
            sink.gauge(name + ".count", gc.getCollectionCount());
            sink.gauge(name + ".time_ms", gc.getCollectionTime());
        }

        sink.gauge("jvm.threads.live", threads.getThreadCount());
        sink.gauge("jvm.threads.daemon", threads.getDaemonThreadCount());
        sink.gauge("jvm.threads.peak", threads.getPeakThreadCount());

        sink.gauge("jvm.classes.loaded", classes.getLoadedClassCount());
        sink.gauge("jvm.classes.unloaded", classes.getUnloadedClassCount());

        sink.gauge("jvm.uptime_ms", runtime.getUptime());
        sink.gauge("jvm.cpu.count", os.getAvailableProcessors());
        sink.gauge("jvm.system.load_average", os.getSystemLoadAverage());
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            com.sun.management.OperatingSystemMXBean sun = (com.sun.management.OperatingSystemMXBean) os;
            sink.gauge("jvm.cpu.process_load", sun.getProcessCpuLoad());
            sink.gauge("jvm.cpu.process_time_ms", sun.getProcessCpuTime() / 1_000_000.0);
        }
    }
}
