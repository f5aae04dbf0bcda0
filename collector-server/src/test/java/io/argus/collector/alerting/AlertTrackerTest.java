package io.argus.collector.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import io.argus.collector.alerting.rules.AlertRule;
import io.argus.collector.alerting.rules.SignalKind;
import io.argus.collector.alerting.state.AlertEvent;
import io.argus.collector.alerting.state.AlertState;
import io.argus.collector.alerting.state.AlertTracker;
import io.argus.collector.alerting.state.DedupKey;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The alert state machine: pending for the rule's 'for', firing, resolved; history; de-duplication keys. */
class AlertTrackerTest {
    static AlertRule rule(String name, String route, Duration pendingFor) {
        return new AlertRule(name, "front", "server", null, route, null, null, SignalKind.ERROR_RATE, true, 0.1,
                Duration.ofMinutes(1), pendingFor, 1, "critical", List.of("hook"), 1);
    }

    @Test
    void pendingThenFiringAfterItsForThenResolved() {
        AlertTracker t = new AlertTracker();
        AlertRule r = rule("errors", "/a", Duration.ofSeconds(30));
        assertThat(t.evaluated(r, 0.0, 0, 60_000, 60_000)).isNull();
        AlertEvent pending = t.evaluated(r, 0.5, 10_000, 70_000, 70_000);
        assertThat(pending.to()).isEqualTo(AlertState.PENDING);
        assertThat(pending.notifies()).isFalse();
        assertThat(t.evaluated(r, 0.5, 0, 0, 90_000)).isNull(); // 20 s of 30
        AlertEvent firing = t.evaluated(r, 0.4, 40_000, 100_000, 100_000);
        assertThat(firing.from()).isEqualTo(AlertState.PENDING);
        assertThat(firing.to()).isEqualTo(AlertState.FIRING);
        assertThat(firing.activeSinceMs()).isEqualTo(70_000);
        assertThat(firing.value()).isEqualTo(0.4);
        assertThat(firing.notifies()).isTrue();
        assertThat(t.evaluated(r, 0.9, 0, 0, 110_000)).isNull(); // still firing: no second notification
        AlertEvent resolved = t.evaluated(r, 0.0, 60_000, 120_000, 120_000);
        assertThat(resolved.to()).isEqualTo(AlertState.RESOLVED);
        assertThat(resolved.dedupKey()).isEqualTo(firing.dedupKey()).isEqualTo(DedupKey.of(r));
        assertThat(t.alerts()).singleElement().satisfies(a -> {
            assertThat(a.state()).isEqualTo(AlertState.RESOLVED);
            assertThat(a.firedAtMs()).isEqualTo(100_000);
            assertThat(a.resolvedAtMs()).isEqualTo(120_000);
        });
        assertThat(t.history(null, 10)).extracting(AlertEvent::to)
                .containsExactly(AlertState.RESOLVED, AlertState.FIRING, AlertState.PENDING);
        assertThat(t.history("back", 10)).isEmpty();
    }

    @Test
    void aPendingAlertThatClearsNeverFiresAndNoDataNeverBreaches() {
        AlertTracker t = new AlertTracker();
        AlertRule r = rule("errors", "/a", Duration.ofMinutes(1));
        assertThat(t.evaluated(r, 0.5, 0, 0, 1_000).to()).isEqualTo(AlertState.PENDING);
        assertThat(t.evaluated(r, Double.NaN, 0, 0, 2_000).to()).isEqualTo(AlertState.INACTIVE);
        AlertRule now = rule("now", "/b", Duration.ZERO);
        assertThat(t.evaluated(now, 0.2, 0, 0, 3_000).to()).isEqualTo(AlertState.FIRING);
    }

    @Test
    void aFailedQueryKeepsTheStateAndShowsTheError() {
        AlertTracker t = new AlertTracker();
        AlertRule r = rule("errors", "/a", Duration.ZERO);
        t.evaluated(r, 0.5, 0, 0, 1_000);
        t.failed(r, "Druid unreachable", 2_000);
        assertThat(t.alerts()).singleElement().satisfies(a -> {
            assertThat(a.state()).isEqualTo(AlertState.FIRING);
            assertThat(a.error()).isEqualTo("Druid unreachable");
        });
    }

    @Test
    void aRuleWhoseScopeChangesResolvesItsFiringAlertAndOneWhoseBoundChangesKeepsIt() {
        AlertTracker t = new AlertTracker();
        AlertRule r = rule("errors", "/a", Duration.ZERO);
        t.evaluated(r, 0.5, 0, 0, 1_000);
        AlertRule higher = new AlertRule("errors", "front", "server", null, "/a", null, null, SignalKind.ERROR_RATE,
                true, 0.2, Duration.ofMinutes(5), Duration.ZERO, 1, "critical", List.of("hook"), 3);
        assertThat(t.retain(List.of(higher), 2_000)).isEmpty();
        assertThat(t.alerts()).singleElement().satisfies(a -> assertThat(a.state()).isEqualTo(AlertState.FIRING));
        List<AlertEvent> out = t.retain(List.of(rule("errors", "/b", Duration.ZERO)), 3_000);
        assertThat(out).singleElement().satisfies(e -> {
            assertThat(e.to()).isEqualTo(AlertState.RESOLVED);
            assertThat(e.reason()).contains("removed or changed");
            assertThat(e.rule().route()).isEqualTo("/a");
        });
        assertThat(t.alerts()).singleElement().satisfies(a -> {
            assertThat(a.rule().route()).isEqualTo("/b");
            assertThat(a.state()).isEqualTo(AlertState.INACTIVE);
        });
        assertThat(DedupKey.of(rule("errors", "/a", Duration.ZERO))).isNotEqualTo(DedupKey.of(rule("errors", "/b",
                Duration.ZERO))).hasSize(20);
    }
}
