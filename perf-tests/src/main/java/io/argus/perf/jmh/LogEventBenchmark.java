package io.argus.perf.jmh;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The logback plugin's probes: a Logback event is created and its MDC map read, as an appender's
 * {@code %X{..}} does, with no I/O. Untraced (0%) the probes cost a thread-local read and must
 * allocate nothing beyond the event itself; at 100% (a server span is current on the benchmark
 * thread, see {@link ProbeCostBenchmark#openServerSpan}) the map gains the trace and span ids.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class LogEventBenchmark {

    private Logger logger;
    private final Object[] arguments = {42};

    @Setup(org.openjdk.jmh.annotations.Level.Trial)
    public void setUp() throws Exception {
        // the context SLF4J set up: it holds the MDC adapter that Logback 1.5 events read
        logger = ((LoggerContext) org.slf4j.LoggerFactory.getILoggerFactory()).getLogger("benchmark");
        if (Boolean.getBoolean("bench.openSpan")) {
            ProbeCostBenchmark.openServerSpan();
        }
    }

    @Benchmark
    public Map<String, String> logbackEvent() {
        LoggingEvent event = new LoggingEvent(Logger.class.getName(), logger, Level.INFO, "order {}", null, arguments);
        return event.getMDCPropertyMap();
    }
}
