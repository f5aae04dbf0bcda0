package io.argus.perf.harness.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Against R 4.2.2's {@code wilcox.test(x, y, conf.int = TRUE)} (the commands are in each test). */
class HodgesLehmannTest {

    static final double[] X = {0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46};
    static final double[] Y = {1.15, 0.88, 0.90, 0.74, 1.21};

    /** wilcox.test(x, y, conf.int = TRUE): -0.15 0.76, difference in location 0.305 (exact: no ties). */
    @Test
    void shiftOfThePublishedExample() {
        HodgesLehmann.Interval s = HodgesLehmann.shift(X, Y, 0.95);
        assertThat(s.estimate()).isCloseTo(0.305, within(1e-12));
        assertThat(s.low()).isCloseTo(-0.15, within(1e-12));
        assertThat(s.high()).isCloseTo(0.76, within(1e-12));
        assertThat(s.coverage()).isGreaterThanOrEqualTo(0.95).isLessThan(0.97);
        assertThat(s.bounded()).isTrue();
    }

    /** exp(wilcox.test(log(x), log(y), conf.int = TRUE)$conf.int): 0.8595041 1.9594595, estimate 1.311767. */
    @Test
    void ratioIsTheShiftOfTheLogs() {
        HodgesLehmann.Interval r = HodgesLehmann.ratio(X, Y, 0.95);
        assertThat(r.estimate()).isCloseTo(1.311767, within(1e-6));
        assertThat(r.low()).isCloseTo(0.8595041, within(1e-7));
        assertThat(r.high()).isCloseTo(1.9594595, within(1e-7));
    }

    /**
     * Twelve QPS-like rounds each, about 4% slower: R gives 0.9539666993 0.9702675917, estimate
     * 0.9626118371: the whole interval is below ×0.99.
     */
    @Test
    void ratioOfTwelveRoundsEach() {
        double[] base = {101.2, 99.8, 100.5, 102.1, 98.9, 100.0, 101.7, 99.3, 100.9, 100.2, 99.6, 101.1};
        double[] slow = {96.1, 97.4, 95.8, 96.9, 97.9, 96.3, 95.2, 97.0, 96.6, 98.1, 95.9, 96.8};
        HodgesLehmann.Interval r = HodgesLehmann.ratio(slow, base, 0.95);
        assertThat(r.estimate()).isCloseTo(0.9626118371, within(1e-9));
        assertThat(r.low()).isCloseTo(0.9539666993, within(1e-9));
        assertThat(r.high()).isCloseTo(0.9702675917, within(1e-9));
    }

    /** wilcox.test(1:4, 5:8, conf.int = TRUE): -7 -1, estimate -4 (the full range: 2/70 &lt; 0.05). */
    @Test
    void fourAgainstFourIsTheSmallestBoundedInterval() {
        HodgesLehmann.Interval s = HodgesLehmann.shift(new double[]{1, 2, 3, 4}, new double[]{5, 6, 7, 8}, 0.95);
        assertThat(s.estimate()).isEqualTo(-4);
        assertThat(s.low()).isEqualTo(-7);
        assertThat(s.high()).isEqualTo(-1);
        assertThat(s.coverage()).isCloseTo(1 - 2.0 / 70, within(1e-12));
        assertThat(HodgesLehmann.minimumPerSample(0.95)).isEqualTo(4);
    }

    /**
     * Two against two (a --quick run): R warns "Requested conf.level not achievable" and returns the
     * full range with coverage 2/3; at 95% the interval is unbounded.
     */
    @Test
    void twoAgainstTwoCannotReach95Percent() {
        HodgesLehmann.Interval s = HodgesLehmann.shift(new double[]{10, 11}, new double[]{1, 2}, 0.95);
        assertThat(s.bounded()).isFalse();
        assertThat(s.low()).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(s.high()).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(s.coverage()).isCloseTo(2 / 3.0, within(1e-12));
        assertThat(s.estimate()).isEqualTo(9);
        HodgesLehmann.Interval r = HodgesLehmann.ratio(new double[]{10, 11}, new double[]{1, 2}, 0.95);
        assertThat(r.bounded()).isFalse();
        assertThat(r.low()).isZero();
    }

    /**
     * 60 and 55 values (beyond the exact limit): the normal approximation. R, which solves for the interval
     * numerically with the continuity correction (wilcox.test(u, v, conf.int = TRUE, exact = FALSE)), gives
     * 0.1895907690 0.8870110337 and estimate 0.5351923487 (also a root there, not the median of the differences);
     * the order statistics here lie within a spacing or two of the pairwise differences of that.
     */
    @Test
    void largeSamplesUseTheNormalApproximation() {
        HodgesLehmann.Interval s = HodgesLehmann.shift(U, V, 0.95);
        assertThat(s.estimate()).isCloseTo(0.5351923487, within(0.001));
        assertThat(s.low()).isCloseTo(0.1895907690, within(0.01));
        assertThat(s.high()).isCloseTo(0.8870110337, within(0.01));
        assertThat(s.coverage()).isCloseTo(0.95, within(0.002));
    }

    @Test
    void badInputIsRefused() {
        assertThatThrownBy(() -> HodgesLehmann.shift(new double[0], new double[]{1}, 0.95))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HodgesLehmann.ratio(new double[]{1, 0}, new double[]{1}, 0.95))
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> HodgesLehmann.shift(new double[]{Double.NaN}, new double[]{1}, 0.95))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HodgesLehmann.shift(new double[]{1}, new double[]{1}, 1.0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** set.seed(1); u <- rnorm(60, 10, 1); v <- rnorm(55, 9.5, 1) in R. */
    static final double[] U = {9.373546189257668, 10.183643324222082, 9.164371387589952, 11.595280802137792,
            10.329507771815361, 9.179531615881984, 10.487429052428485, 10.738324705129218, 10.575781351653493,
            9.694611612843644, 11.511781168450849, 10.389843236411432, 9.378759419458197, 7.785300112822500,
            11.124930918143107, 9.955066390984769, 9.983809736901055, 10.943836210685300, 10.821221195098088,
            10.593901321217508, 10.918977371608218, 10.782136300731068, 10.074564983365191, 8.010648304136627,
            10.619825747894710, 9.943871260470999, 9.844204493294670, 8.529247616100726, 9.521849944891379,
            10.417941560199703, 11.358679551529043, 9.897212272657004, 10.387671611559369, 9.946194959417095,
            8.622940443171393, 9.585005436700321, 9.605710046289651, 9.940686603288814, 11.100025371983882,
            10.763175748457543, 9.835476403746414, 9.746638319863493, 10.696963375404737, 10.556663198673657,
            9.311244305450479, 9.292504843037880, 10.364581962136830, 10.768532924515416, 9.887653787849771,
            10.881107726454214, 10.398105880367067, 9.387973606749229, 10.341119691424424, 8.870636903919207,
            11.433023701701037, 11.980399898505860, 9.632778523533490, 8.955865373683469, 10.569719627442414,
            9.864945396119175};
    static final double[] V = {11.901617760504777, 9.460759997266830, 10.189739362450776, 9.528002158780666,
            8.756726791117595, 9.688792299514343, 7.695041371108962, 10.965554861562886, 9.653253338211897,
            11.672611670362153, 9.975509528899662, 8.790053569078186, 10.110726353489055, 8.565902368355749,
            8.246366599760897, 9.791446235517462, 9.056708126781567, 9.501105351631624, 9.574341324151664,
            8.910479053811928, 8.931331267181498, 9.364821384876167, 10.678086996573205, 7.976433199570238,
            10.093946187628422, 9.832950371213519, 10.563099837276363, 9.195816076365700, 9.870018809916289,
            9.767098790772231, 8.957479969008350, 10.707867805983172, 10.660402615694952, 10.200213649514998,
            11.086833454540846, 10.058486425565304, 8.223407791541963, 8.926734585763114, 8.275387385101645,
            9.026599363560688, 8.879633322775875, 9.542115873144235, 8.589078351447554, 9.658028772404075,
            8.845415356081181, 11.267287269372646, 10.216707476017206, 10.410174229495228, 9.884185357826345,
            11.182176080519419, 8.864263546051022, 9.038355269639434, 10.932282238541664, 8.849303646689634,
            9.292619256398035};
}
