package argus.bench;

import io.argus.core.metrics.CallMetricsTable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.TimeUnit;

/**
 * What recording one request in the HTTP metrics costs (every request, traced or not): a known cell of the
 * server table, latencies spread over the buckets a web service sees (50 µs to 20 ms), by one thread and by two
 * threads on the same cell (the cache line moves between cores). Built against an agent-core jar outside Maven,
 * so that two builds of the core can be compared in turn:
 *
 * <pre>
 * CP=agent-core/target/argus-agent-core-0.1.0-SNAPSHOT.jar:$JMH/jmh-core-1.37.jar:$JOPT:$MATH3
 * javac -cp $CP -processorpath $CP:$JMH/jmh-generator-annprocess-1.37.jar -d /tmp/mrb perf-tests/scripts/MetricsRecordBenchmark.java
 * java -cp /tmp/mrb:$CP org.openjdk.jmh.Main argus.bench.MetricsRecordBenchmark -f 3 -wi 3 -i 5 -r 1 -w 1
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MetricsRecordBenchmark {

    private static final long[] LATENCIES = {52_000, 180_000, 75_000, 1_200_000, 95_000, 20_000_000, 310_000, 64_000};

    private final CallMetricsTable table = CallMetricsTable.forHttp(1000);
    private final String path = new String("/front/call");

    @State(Scope.Thread)
    public static class Cursor {
        int i;
    }

    @Benchmark
    @Threads(1)
    public void recordOneThread(Cursor cursor) {
        table.record("GET", path, 200, LATENCIES[cursor.i++ & 7], false);
    }

    @Benchmark
    @Threads(2)
    public void recordTwoThreads(Cursor cursor) {
        table.record("GET", path, 200, LATENCIES[cursor.i++ & 7], false);
    }
}
