package io.argus.core.state;

import io.argus.bridge.state.LongField;
import io.argus.bridge.state.ObjectField;
import io.argus.core.plugin.Probes;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Fields on objects whose class has no real field: the bounded weak map behind them. */
class ObjectFieldTest {

    private final AtomicLong dropped = new AtomicLong();

    ObjectFieldTest() {
        Probes probes = new Probes("test", null);
        probes.field("com.example.Request", "test.span").longField("com.example.Request", "test.start");
        new FieldRegistry(dropped).declare(probes.fields());
    }

    @Test
    void valuesAreSetReadAndRemovedPerObject() {
        ObjectField<String> span = ObjectField.named("test.span");
        LongField start = LongField.named("test.start");
        Object a = new Object();
        Object b = new Object();
        span.set(a, "span-a");
        start.set(a, 42);
        assertThat(span.get(a)).isEqualTo("span-a");
        assertThat(span.get(b)).isNull();
        assertThat(start.get(a)).isEqualTo(42);
        assertThat(start.get(b)).isZero();
        assertThat(span.remove(a)).isEqualTo("span-a");
        assertThat(span.remove(a)).isNull();
        assertThat(start.remove(a)).isEqualTo(42);
        assertThat(start.get(a)).isZero();
        span.set(b, "x");
        span.set(b, null);
        assertThat(span.get(b)).as("null clears").isNull();
        assertThat(span.get(null)).isNull();
        span.set(null, "ignored");
        assertThat(dropped).hasValue(0);
    }

    @Test
    void anUndeclaredFieldIsAClearError() {
        assertThatThrownBy(() -> ObjectField.named("nobody.declared.this"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nobody.declared.this");
    }

    @Test
    void theMapIsBoundedAndCountsWhatItRefuses() {
        MappedObjectField<String> field = new MappedObjectField<>("test.small", 0, 2, dropped);
        Object[] owners = {new Object(), new Object(), new Object()};
        for (Object owner : owners) {
            field.set(owner, "v");
        }
        assertThat(dropped).hasValue(1);
        assertThat(field.mappedSize()).isEqualTo(2);
        assertThat(field.get(owners[2])).isNull();
        field.remove(owners[0]);
        field.set(owners[2], "now");
        assertThat(field.get(owners[2])).isEqualTo("now");
    }

    @Test
    void threadsSettingAndTakingTheirOwnObjectsNeverSeeAnotherThreadsValue() throws Exception {
        ObjectField<Object> span = ObjectField.named("test.span");
        int threads = 4;
        int rounds = 20_000;
        AtomicInteger wrong = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            new Thread(() -> {
                for (int i = 0; i < rounds; i++) {
                    Object owner = new Object();
                    Object value = new Object();
                    span.set(owner, value);
                    if (span.remove(owner) != value || span.get(owner) != null) {
                        wrong.incrementAndGet();
                    }
                }
                done.countDown();
            }).start();
        }
        done.await();
        assertThat(wrong).hasValue(0);
        assertThat(dropped).hasValue(0);
    }
}
