package io.argus.perf.harness.report;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SvgTest {

    @Test
    void escapesMarkup() {
        assertThat(Svg.esc("a<b & \"c\"")).isEqualTo("a&lt;b &amp; &quot;c&quot;");
    }
}
