package io.argus.perf.jmh;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A poll loop over one poll's records, as the kafka-clients plugin sees it, without a broker (see
 * {@link ProbeCostMain}): {@code for (ConsumerRecord r : records)} over {@value #RECORDS} records of one topic that
 * carry no trace context. The plugin's {@code ConsumerRecords.iterator()} advice and its per-record processing
 * run on every record; at 0% no record is traced (one iterator per poll is the plugin's only allocation), at 100%
 * every record is the root of a CONSUMER span.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class KafkaConsumerBenchmark {

    static final int RECORDS = 100;
    private ConsumerRecords<String, String> poll;

    @Setup
    public void setUp() {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            records.add(new ConsumerRecord<>("orders", 0, i, "key-" + i, "value-" + i));
        }
        poll = new ConsumerRecords<>(Map.of(new TopicPartition("orders", 0), records));
    }

    @Benchmark
    public long pollLoop() {
        long sum = 0;
        for (ConsumerRecord<String, String> r : poll) {
            sum += r.offset();
        }
        return sum;
    }
}
