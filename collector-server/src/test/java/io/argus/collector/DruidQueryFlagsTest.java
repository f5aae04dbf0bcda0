package io.argus.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.argus.collector.storage.druid.DruidSettings;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code --query druid}: the flags, and the one clear error at start when the Druid setting is wrong. */
class DruidQueryFlagsTest {

    @Test
    void queryNodeFlags() throws Exception {
        CollectorConfig c = CollectorMain.parse(new String[] {"--query", "druid", "--druid-url",
                "http://127.0.0.1:8888", "--druid-datasource-prefix=apm_"}, Map.of());
        assertThat(c.druidQuery().url().toString()).isEqualTo("http://127.0.0.1:8888");
        assertThat(c.druidQuery().datasources().all()).containsExactly("apm_spans", "apm_calls", "apm_jvm",
                "apm_agents");
        assertThat(CollectorMain.parse(new String[] {"--query=druid", "--druid-url=http://127.0.0.1:8082"}, Map.of())
                .druidQuery().datasourcePrefix()).isEqualTo("argus-");
        assertThat(CollectorMain.parse(new String[0], Map.of()).druidQuery()).isNull();
    }

    @Test
    void badQueryNodeFlags() {
        assertBad("invalid value for --query: 'duckdb' (only 'druid')", "--query", "duckdb");
        assertBad("--query druid needs --druid-url", "--query", "druid");
        assertBad("--druid-url is set but --query druid is not", "--druid-url", "http://127.0.0.1:8888");
        assertBad("invalid value for --druid-url: the Druid URL must be http://host:port", "--query", "druid",
                "--druid-url", "ftp://127.0.0.1:8888");
        assertBad("invalid value for --druid-datasource-prefix", "--query", "druid", "--druid-url",
                "http://127.0.0.1:8888", "--druid-datasource-prefix", "a\"b");
    }

    @Test
    void unreachableDruidIsOneErrorNamingTheSetting() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        CollectorConfig config = CollectorConfig.builder().ingestPort(0).httpPort(0)
                .druidQuery(DruidSettings.of("http://127.0.0.1:" + closed)).build();
        assertThatThrownBy(() -> Collector.start(config))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("--druid-url http://127.0.0.1:" + closed + ": Druid SQL does not answer there")
                .hasMessageContaining("unreachable");
    }

    @Test
    void aServerThatIsNotDruidIsOneErrorNamingTheSetting() throws Exception {
        HttpServer notDruid = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        notDruid.createContext("/", ex -> {
            byte[] body = "no such page".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(404, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        notDruid.start();
        try {
            String url = "http://127.0.0.1:" + notDruid.getAddress().getPort();
            CollectorConfig config = CollectorConfig.builder().ingestPort(0).httpPort(0)
                    .druidQuery(DruidSettings.of(url)).build();
            assertThatThrownBy(() -> Collector.start(config))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("--druid-url " + url + ": Druid SQL does not answer there")
                    .hasMessageContaining("404");
        } finally {
            notDruid.stop(0);
        }
    }

    private static void assertBad(String message, String... args) {
        assertThatThrownBy(() -> CollectorMain.parse(args, Map.of()))
                .isInstanceOf(CollectorMain.UsageException.class)
                .hasMessageContaining(message);
    }
}
