package io.argus.perf.load.stats;

import io.argus.perf.load.model.RunResults.MetricComparison;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class AnalysisTest {

    private static final Analysis.Metric QPS = new Analysis.Metric("qps", "req/s", true, "qps");

    @Test
    void passWhenTheRatioMeetsTheTarget() {
        double[] base = {100, 101, 99, 100, 102};
        double[] x = {99.5, 100.5, 99, 100, 101};
        MetricComparison m = Analysis.compare(QPS, x, base, Anchors.limit("default-0", "qps", "call"));
        assertThat(m.ratio).isCloseTo(1.0, within(1e-12));
        assertThat(m.target).isEqualTo("ratio >= 0.99");
        assertThat(m.verdict).isEqualTo("PASS");
    }

    @Test
    void failOnlyWhenSignificant() {
        double[] base = {100, 101, 99, 100, 102};
        double[] slow = {90, 91, 89, 90, 92};
        MetricComparison fail = Analysis.compare(QPS, slow, base, Anchors.limit("default-0", "qps", "call"));
        assertThat(fail.pValue).isLessThan(0.05);
        assertThat(fail.verdict).isEqualTo("FAIL");
        assertThat(fail.cohensD).isNegative();

        // two samples each cannot reach p < 0.05 (best 1/3): a miss is inconclusive
        MetricComparison inconclusive = Analysis.compare(QPS, new double[]{90, 91}, new double[]{100, 101},
                Anchors.limit("default-0", "qps", "call"));
        assertThat(inconclusive.verdict).isEqualTo("INCONCLUSIVE");
    }

    @Test
    void anchorsTargets() {
        assertThat(Anchors.limit("default-0", "startupMs", "call").describe()).isEqualTo("ratio <= 1.10");
        assertThat(Anchors.limit("default-0", "p99Ms", "call").describe()).isEqualTo("ratio <= 1.03");
        assertThat(Anchors.limit("default-100", "qps", "call").describe()).isEqualTo("ratio >= 0.98");
        assertThat(Anchors.limit("default-100", "p99Ms", "call").describe()).isEqualTo("ratio <= 1.05");
        assertThat(Anchors.limit("default-100", "qps", "ping").describe()).isEqualTo("ratio >= 0.90");
        assertThat(Anchors.limit("jvm-only", "qps", "ping").describe()).isEqualTo("ratio >= 0.99");
        assertThat(Anchors.limit("otel", "qps", "call")).isNull();
        assertThat(Anchors.limit("default-0", "p95Ms", "call")).isNull();
    }
}
