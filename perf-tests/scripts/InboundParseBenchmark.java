package io.argus.core.trace;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * What joining an inbound {@code traceparent} costs a traced server request: the header checked
 * ({@code w3cDecision}) and its ids read into the server span ({@code w3cInto}). In the core's package (the span's
 * constructor is package-private), built against an agent-core jar outside Maven, as MetricsRecordBenchmark is:
 *
 * <pre>
 * javac -cp $CP -processorpath $CP:$JMH/jmh-generator-annprocess-1.37.jar -d /tmp/ipb perf-tests/scripts/InboundParseBenchmark.java
 * java -cp /tmp/ipb:$CP org.openjdk.jmh.Main io.argus.core.trace.InboundParseBenchmark -f 1 -wi 3 -i 5 -r 1 -w 1
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class InboundParseBenchmark {

    private final String header = new String("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");

    @Benchmark
    public RecordedSpan joinTraceparent() {
        if (InboundContext.w3cDecision(header) != InboundContext.SAMPLED) {
            return null;
        }
        RecordedSpan span = new RecordedSpan(RecordedSpan.KIND_SERVER);
        InboundContext.w3cInto(header, span);
        return span;
    }
}
