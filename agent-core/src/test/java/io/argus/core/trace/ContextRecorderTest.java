package io.argus.core.trace;

import io.argus.bridge.state.ObjectField;
import io.argus.core.plugin.Probes;
import io.argus.core.state.FieldRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Contexts carried on task and thread objects, driven the way the executors plugin's advice drives them. */
class ContextRecorderTest {

    private final List<RecordedSpan> spans = new ArrayList<>();
    private final Tracer tracer = new Tracer(new Sampler(100), spans::add);
    private final ContextRecorder hooks = new ContextRecorder(tracer);
    private final ObjectField<Object> context;

    ContextRecorderTest() {
        Probes probes = new Probes("test", null);
        probes.field("java.lang.Thread", "test.context");
        new FieldRegistry(new AtomicLong()).declare(probes.fields());
        context = ObjectField.named("test.context");
    }

    /** What submit advice does: leave the current context on the task, if there is one. */
    private void bind(Object carrier) {
        Object current = hooks.current();
        if (current != null) {
            context.set(carrier, current);
        }
    }

    @Test
    void contextsBoundToTasksAreTakenOnce() {
        Object task = new Object();
        bind(task);
        assertThat(context.remove(task)).as("nothing is current: nothing bound").isNull();
        RecordedSpan parent = tracer.startServer("GET", "/", null, null, null);
        bind(task);
        tracer.end(parent, System.nanoTime(), null, false);
        assertThat(context.remove(task)).isSameAs(parent);
        assertThat(context.remove(task)).isNull();
    }

    @Test
    void aThreadsInheritedContextLapsesWithItsSpan() throws Exception {
        RecordedSpan parent = tracer.startServer("GET", "/", null, null, null);
        CountDownLatch ended = new CountDownLatch(1);
        List<Object> seen = new CopyOnWriteArrayList<>();
        Thread thread = new Thread(() -> {
            hooks.attachInherited(context.remove(Thread.currentThread()));   // what Thread.run's advice does
            seen.add(hooks.current());
            try {
                ended.await();
            } catch (InterruptedException e) {
                return;
            }
            seen.add(String.valueOf(hooks.current()));
            RecordedSpan later = tracer.startInternal("later");
            seen.add(later.parentSpanId());
            tracer.end(later, System.nanoTime(), null, false);
        });
        bind(thread);   // what Thread.start's advice does
        thread.start();
        while (seen.isEmpty()) {
            Thread.sleep(5);
        }
        tracer.end(parent, System.nanoTime(), null, false);
        ended.countDown();
        thread.join(10_000);
        assertThat(seen).containsExactly(parent, "null", 0L);
    }
}
