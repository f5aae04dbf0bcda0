package io.argus.perf.load.run;

import io.argus.perf.harness.proc.AllocationMeter;
import io.argus.perf.harness.proc.CpuReading;
import io.argus.cluster.process.ManagedProcess;
import io.argus.perf.harness.run.CollectorProcess;
import io.argus.perf.load.model.RunResults.Round;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a load window costs each target process and the collector: CPU time ({@link CpuReading}, from
 * {@code /proc}, the process untouched), bytes allocated ({@link AllocationMeter}, where the JVM could
 * be attached), and the collector's CPU time and spans stored. Read at every boundary of the closed
 * loop's rounds, so that the windows are contiguous and each round is a sample of CPU and allocation
 * per request; and around the Gatling run.
 *
 * <p>What a reading costs lands in the windows alike: one ThreadMXBean call per process and one
 * {@code GET /metrics} of the collector per boundary, the same in every scenario.
 */
public final class ResourceMeter implements AutoCloseable {

    private final Map<String, ManagedProcess> processes = new LinkedHashMap<>();
    private final Map<String, AllocationMeter> allocation = new LinkedHashMap<>();
    /** Per process: how allocation is read, or why it is not. */
    private final Map<String, String> allocationSource = new LinkedHashMap<>();
    private final CollectorProcess collector;
    private final Map<String, Integer> threadsEnded = new LinkedHashMap<>();

    /** @param collector the scenario's collector, or null */
    public ResourceMeter(List<ManagedProcess> processes, CollectorProcess collector) {
        processes.forEach(p -> this.processes.put(p.name(), p));
        this.collector = collector;
    }

    /** Attaches to every process for its allocation; a process that refuses is measured without. */
    public void attach() {
        for (ManagedProcess p : processes.values()) {
            try {
                allocation.put(p.name(), AllocationMeter.attach(p.pid()));
                allocationSource.put(p.name(), "ThreadMXBean over a local JMX connection");
            } catch (IOException e) {
                allocationSource.put(p.name(), "not measured: " + e.getMessage());
            }
        }
    }

    public Map<String, String> allocationSource() {
        return allocationSource;
    }

    /** Per process: threads that ended inside a window, taking some allocation with them. */
    public Map<String, Integer> threadsEnded() {
        return threadsEnded;
    }

    /** Everything at one moment. */
    public record Reading(Map<String, CpuReading> cpu, Map<String, Map<Long, Long>> allocated, CpuReading collectorCpu,
                          Double collectorSpans) {
    }

    public Reading read() {
        Map<String, CpuReading> cpu = new LinkedHashMap<>();
        for (ManagedProcess p : processes.values()) {
            cpu.put(p.name(), CpuReading.of(p.pid()));
        }
        Map<String, Map<Long, Long>> allocated = new LinkedHashMap<>();
        for (Map.Entry<String, AllocationMeter> e : allocation.entrySet()) {
            try {
                allocated.put(e.getKey(), e.getValue().read());
            } catch (IOException ex) {
                allocationSource.put(e.getKey(), "failed mid-run: " + ex.getMessage());
            }
        }
        CpuReading collectorCpu = null;
        Double spans = null;
        if (collector != null) {
            collectorCpu = CpuReading.of(collector.jvmPid());
            try {
                spans = collector.prometheus().getOrDefault("argus_collector_spans_stored_total", 0.0);
            } catch (IOException e) {
                spans = null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return new Reading(cpu, allocated, collectorCpu, spans);
    }

    /** Fills the round's CPU, allocation and collector figures for the window {@code from} to {@code to}. */
    public void fill(Round r, Reading from, Reading to) {
        for (String name : processes.keySet()) {
            CpuReading a = from.cpu().get(name);
            CpuReading b = to.cpu().get(name);
            double ms = a == null || b == null ? Double.NaN : b.millisSince(a);
            if (!Double.isNaN(ms)) {
                r.cpuMs.put(name, ms);
            }
            Map<Long, Long> x = from.allocated().get(name);
            Map<Long, Long> y = to.allocated().get(name);
            if (x != null && y != null) {
                AllocationMeter.Window w = AllocationMeter.between(x, y);
                r.allocatedBytes.put(name, w.bytes());
                if (w.threadsEnded() > 0) {
                    threadsEnded.merge(name, w.threadsEnded(), Integer::sum);
                }
            }
        }
        if (from.collectorCpu() != null && to.collectorCpu() != null) {
            double ms = to.collectorCpu().millisSince(from.collectorCpu());
            r.collectorCpuMs = Double.isNaN(ms) ? null : ms;
            r.collectorSpansStored = from.collectorSpans() == null || to.collectorSpans() == null ? null
                    : to.collectorSpans() - from.collectorSpans();
        }
    }

    @Override
    public void close() {
        allocation.values().forEach(AllocationMeter::close);
    }
}
