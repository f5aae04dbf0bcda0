package io.argus.perf.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import reactor.core.publisher.Mono;

/**
 * A Reactor chain assembled and subscribed on the benchmark thread, as a request handler does (see
 * {@link ProbeCostMain}): {@code Mono.just(..).map(..).flatMap(Mono.just(..)).filter(..).block()}. The reactor
 * plugin's assembly advice and its {@code onEachOperator} hook run on every operator; at 0% nothing is traced, so
 * no operator is lifted; at 100% the benchmark thread holds an open server span, so every operator subscribes
 * through a context-carrying subscriber.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ReactorChainBenchmark {

    private int n;

    @Setup
    public void setUp() throws Exception {
        if (Boolean.getBoolean("bench.openSpan")) {
            ProbeCostBenchmark.openServerSpan();
        }
    }

    @Benchmark
    public Integer chain() {
        return Mono.just(++n).map(i -> i + 1).flatMap(i -> Mono.just(i * 2)).filter(i -> i > 0).block();
    }
}
