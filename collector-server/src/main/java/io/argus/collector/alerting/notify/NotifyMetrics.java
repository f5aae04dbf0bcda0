package io.argus.collector.alerting.notify;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** {@code argus_collector_alert_notifications_total{channel, outcome=sent|failed|dropped}}. */
final class NotifyMetrics {
    private final MeterRegistry registry;

    NotifyMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void sent(String channel) {
        counter(channel, "sent").increment();
    }

    /** One failed attempt (it may be retried). */
    void failed(String channel) {
        counter(channel, "failed").increment();
    }

    /** A notification given up on: retries spent, queue full, or the collector stopping. */
    void dropped(String channel) {
        counter(channel, "dropped").increment();
    }

    private Counter counter(String channel, String outcome) {
        return Counter.builder("argus.collector.alert.notifications")
                .description("alert notification attempts per channel: sent, failed (an attempt), dropped (given up)")
                .tag("channel", channel).tag("outcome", outcome).register(registry);
    }
}
