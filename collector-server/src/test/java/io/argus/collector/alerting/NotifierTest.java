package io.argus.collector.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import io.argus.collector.alerting.notify.Notifier;
import io.argus.collector.alerting.rules.AlertRule;
import io.argus.collector.alerting.rules.ChannelSpec;
import io.argus.collector.alerting.rules.SignalKind;
import io.argus.collector.alerting.state.AlertEvent;
import io.argus.collector.alerting.state.AlertState;
import io.argus.collector.testing.WebhookReceiver;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Channels retry with back-off, a channel that is down is counted and logged once per period, others go on. */
class NotifierTest {

    static AlertEvent firing(List<String> channels) {
        AlertRule rule = new AlertRule("errors", "front", "server", null, "/a", null, null, SignalKind.ERROR_RATE,
                true, 0.1, Duration.ofMinutes(1), Duration.ZERO, 1, "warning", channels, 1);
        return new AlertEvent(1_000, rule, "k", AlertState.INACTIVE, AlertState.FIRING, 0.5, 1_000, 0, 1_000, null);
    }

    static ChannelSpec hook(String name, String url, int retries) {
        return new ChannelSpec(name, ChannelSpec.WEBHOOK, url, "inline", null, 2_000, retries, 1);
    }

    @Test
    void aFailedPostIsRetriedWithBackOffUntilItArrives() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver();
             Notifier notifier = new Notifier(new SimpleMeterRegistry(), () -> "http://argus/", 100)) {
            receiver.flakyFailures.set(2);
            notifier.configure(List.of(hook("flaky", receiver.url("/flaky"), 3)));
            long start = System.currentTimeMillis();
            notifier.notify(firing(List.of("flaky")));
            WebhookReceiver.Post post = receiver.next("/flaky", 10_000);
            assertThat(post).isNotNull();
            // two failures: back-off of 100 then 200 ms before the third attempt
            assertThat(post.atMs() - start).isGreaterThanOrEqualTo(300);
            long deadline = System.currentTimeMillis() + 5_000;
            while (notifier.status().get(0).sent() == 0 && System.currentTimeMillis() < deadline) {
                Thread.sleep(10); // the channel counts once the receiver has answered
            }
            Notifier.ChannelStatus s = notifier.status().get(0);
            assertThat(s.sent()).isEqualTo(1);
            assertThat(s.failedAttempts()).isEqualTo(2);
            assertThat(s.dropped()).isZero();
            assertThat(s.lastError()).contains("503");
        }
    }

    @Test
    void aChannelThatIsDownIsCountedLoggedOnceAndDelaysNoOther() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        List<LogRecord> warnings = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                warnings.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger log = Logger.getLogger("io.argus.collector.alerting.notify.ChannelDispatcher");
        log.addHandler(capture);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (WebhookReceiver receiver = new WebhookReceiver();
             Notifier notifier = new Notifier(meters, () -> "http://argus/", 20)) {
            notifier.configure(List.of(hook("down", "http://127.0.0.1:" + closedPort + "/", 2),
                    hook("up", receiver.url("/hook"), 2)));
            for (int i = 0; i < 5; i++) {
                notifier.notify(firing(List.of("down", "up")));
            }
            for (int i = 0; i < 5; i++) {
                assertThat(receiver.next("/hook", 5_000)).isNotNull();
            }
            long deadline = System.currentTimeMillis() + 10_000;
            while (notifier.status().get(0).dropped() < 5 && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            Notifier.ChannelStatus down = notifier.status().get(0);
            assertThat(down.failedAttempts()).isEqualTo(15); // 5 notifications x 3 attempts
            assertThat(down.dropped()).isEqualTo(5);
            assertThat(down.lastError()).contains("ConnectException").doesNotContain(String.valueOf(closedPort));
            assertThat(meters.counter("argus.collector.alert.notifications", "channel", "down", "outcome", "failed")
                    .count()).isEqualTo(15);
            assertThat(notifier.status().get(1).sent()).isEqualTo(5);
            // one line for the failing attempts and one for the give-ups within the period, not fifteen
            assertThat(warnings).hasSize(2);
            assertThat(warnings.get(0).getMessage()).contains("alert channel 'down' (webhook) is failing");
        } finally {
            log.removeHandler(capture);
        }
    }
}
