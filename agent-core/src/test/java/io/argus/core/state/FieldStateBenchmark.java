package io.argus.core.state;

import io.argus.bridge.state.FieldOwner;
import io.argus.bridge.state.ObjectField;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a plugin's per-request state costs on an object whose class has the real field (it loaded after
 * the agent was up) against one whose class has none (it loaded before, so the state is in the map), for
 * the two shapes of a request: untraced (the completion reads and clears a span that is not there) and
 * traced (the start sets the span, the completion takes it). Each operation makes a new owner, as a
 * request object is; {@code inFlight} other owners hold a value meanwhile, as concurrent traced requests
 * would (0: the map is empty). Not run by {@code mvn test}:
 *
 * <pre>
 * mvn -q -o -pl agent-core test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -cp agent-core/target/test-classes:agent-core/target/classes:$(cat agent-core/target/cp.txt) \
 *     org.openjdk.jmh.Main FieldStateBenchmark -prof gc -f 2 -wi 3 -i 5
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FieldStateBenchmark {

    private static final Object SPAN = new Object();

    @Param({"0", "64"})
    public int inFlight;

    private ObjectField<Object> field;
    private final List<Object> holding = new ArrayList<>();

    @Setup
    public void setUp() {
        // a fresh registry's first field has slot 0, the one RealOwner answers
        field = new FieldRegistry(new AtomicLong()).declareObjectField("bench.span." + inFlight);
        for (int i = 0; i < inFlight; i++) {
            Object other = new Object();
            holding.add(other);
            field.set(other, SPAN);
        }
    }

    @Benchmark
    public Object untracedRealField() {
        Object request = new RealOwner();
        return field.get(request) == null ? field.remove(request) : request;
    }

    @Benchmark
    public Object untracedMapped() {
        Object request = new PlainOwner();
        return field.get(request) == null ? field.remove(request) : request;
    }

    @Benchmark
    public Object tracedRealField() {
        Object request = new RealOwner();
        field.set(request, SPAN);
        return field.remove(request);
    }

    @Benchmark
    public Object tracedMapped() {
        Object request = new PlainOwner();
        field.set(request, SPAN);
        return field.remove(request);
    }

    /** What the agent makes of an owner class that loads after it is up: one field behind the slot. */
    static final class RealOwner implements FieldOwner {
        static final int slot = 0;
        private Object value;
        private long padding;

        @Override
        public Object argus$getObject(int s) {
            return s == slot ? value : ABSENT;
        }

        @Override
        public boolean argus$setObject(int s, Object v) {
            if (s != slot) {
                return false;
            }
            value = v;
            return true;
        }

        @Override
        public long argus$getLong(int s) {
            return ABSENT_LONG;
        }

        @Override
        public boolean argus$setLong(int s, long v) {
            return false;
        }
    }

    /** The same object shape without the field: its state goes to the map. */
    static final class PlainOwner {
        private Object other;
        private long padding;
    }
}
