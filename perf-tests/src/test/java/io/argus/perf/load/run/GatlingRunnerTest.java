package io.argus.perf.load.run;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Against the output of a real Gatling 3.15.1 run (291 requests). */
class GatlingRunnerTest {

    private static String resource(String name) throws IOException {
        try (InputStream in = GatlingRunnerTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void readsTheAllRequestsRowOfTheReport() throws IOException {
        Map<String, Double> s = GatlingRunner.parseIndexHtml(resource("gatling-3.15.1-stats-table.html"));
        assertThat(s).containsEntry("Total", 291.0).containsEntry("OK", 291.0).containsEntry("KO", 0.0)
                .containsEntry("Cnt/s", 48.5).containsEntry("Min", 10.0).containsEntry("50th pct", 44.0)
                .containsEntry("75th pct", 67.0).containsEntry("95th pct", 193.0).containsEntry("99th pct", 603.0)
                .containsEntry("Max", 616.0).containsEntry("Mean", 64.0).containsEntry("Std Dev", 86.0);
    }

    @Test
    void readsTheConsoleSummaryAsFallback() throws IOException {
        Map<String, Double> s = GatlingRunner.parseConsole("noise\n" + resource("gatling-3.15.1-console.txt"));
        assertThat(s).containsEntry("Total", 291.0).containsEntry("Cnt/s", 48.5).containsEntry("95th pct", 193.0)
                .containsEntry("99th pct", 603.0).containsEntry("Mean", 64.0);
        assertThat(GatlingRunner.parseConsole("no summary here")).isEmpty();
    }

    @Test
    void rejectsAPageWithoutTable() {
        assertThatThrownBy(() -> GatlingRunner.parseIndexHtml("<html><body>nothing</body></html>"))
                .isInstanceOf(IllegalStateException.class);
    }
}
