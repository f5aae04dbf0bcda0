package io.argus.plugin.kafka;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Apache Kafka clients 3.x and 4.x: PRODUCER spans with the W3C context in the record's headers, a CONSUMER span
 * per record the application processes, continuing the producer's trace, and the messaging metrics per topic.
 *
 * <ul>
 *   <li>{@code KafkaProducer.send(ProducerRecord, Callback)} ({@code send(record)} calls it): a traced send gets a
 *       PRODUCER span under the current span, its context in the record's headers, and a callback that ends the
 *       span when the broker acknowledges ({@link SendAdvice}). Untraced, nothing is touched.</li>
 *   <li>{@code ProducerBatch.done}: the sender thread completes a batch; its records are counted as produced,
 *       with the batch's age as their latency and the broker's refusal as their error ({@link BatchDoneAdvice}).
 *       Nothing on the application's thread.</li>
 *   <li>{@code ConsumerRecords.iterator()}: the records of a poll are iterated through {@link TracedRecords},
 *       which processes each record from the {@code next()} that returns it until the iterator moves on, is
 *       exhausted, or the consumer polls again ({@link PollAdvice}).</li>
 * </ul>
 * Spring Kafka's record listeners iterate the same way; its batch listeners are one CONSUMER span per batch
 * ({@link BatchListenerAdvice}).
 */
public final class KafkaClientsPlugin implements ArgusPlugin {

    private static final String ADVICE = "io.argus.plugin.kafka.";
    private static final String[] HELPERS = {ADVICE + "KafkaHeaders", ADVICE + "TracedRecords",
        ADVICE + "SendCallback"};

    @Override
    public String name() {
        return "kafka-clients";
    }

    @Override
    public void instrument(Probes probes) {
        probes.type("org.apache.kafka.clients.producer.KafkaProducer")
                .helpers(HELPERS)
                .advise(named("send").and(isPublic()).and(takesArguments(2))
                                .and(takesArgument(0, named("org.apache.kafka.clients.producer.ProducerRecord")))
                                .and(takesArgument(1, named("org.apache.kafka.clients.producer.Callback"))),
                        ADVICE + "SendAdvice");
        probes.type("org.apache.kafka.clients.producer.internals.ProducerBatch")
                .advise(named("done").and(takesArgument(0, named("long"))).and(takesArgument(1, named("long")))
                                .and(takesArgument(2, named("java.lang.RuntimeException"))),
                        ADVICE + "BatchDoneAdvice");
        probes.type("org.apache.kafka.clients.consumer.ConsumerRecords")
                .helpers(HELPERS)
                .advise(named("iterator").and(takesArguments(0)), ADVICE + "RecordsIteratorAdvice");
        probes.type("org.apache.kafka.clients.consumer.KafkaConsumer")
                .helpers(HELPERS)
                .advise(named("poll").and(takesArguments(1)), ADVICE + "PollAdvice")
                .advise(named("close"), ADVICE + "PollAdvice");
        probes.type("org.springframework.kafka.listener.KafkaMessageListenerContainer$ListenerConsumer")
                .helpers(HELPERS)
                .advise(named("invokeBatchListener").and(takesArguments(1))
                                .and(takesArgument(0, named("org.apache.kafka.clients.consumer.ConsumerRecords"))),
                        ADVICE + "BatchListenerAdvice");
    }
}
