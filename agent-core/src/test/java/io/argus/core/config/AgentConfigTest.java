package io.argus.core.config;

import io.argus.bootstrap.handoff.ConfigSources;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

class AgentConfigTest {

    private static Properties props(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        return p;
    }

    @Test
    void systemPropertyBeatsEnvironmentBeatsFile() {
        Map<String, String> env = new HashMap<>();
        env.put("ARGUS_TRACING_SAMPLINGRATE", "20");
        Properties file = props("argus.tracing.samplingRate", "30", "argus.service.name", "from-file");
        AgentConfig config = new AgentConfig(props("argus.tracing.samplingRate", "10"), env, file);
        assertThat(config.getDouble("argus.tracing.samplingRate", 0, 0, 100)).isEqualTo(10);

        config = new AgentConfig(props(), env, file);
        assertThat(config.getDouble("argus.tracing.samplingRate", 0, 0, 100)).isEqualTo(20);
        assertThat(config.getString("argus.service.name", "x")).isEqualTo("from-file");

        config = new AgentConfig(props(), new HashMap<>(), file);
        assertThat(config.getDouble("argus.tracing.samplingRate", 0, 0, 100)).isEqualTo(30);
    }

    @Test
    void environmentAcceptsCamelCaseSplitWithUnderscores() {
        Map<String, String> env = new HashMap<>();
        env.put("ARGUS_TRACING_SAMPLING_RATE", "12.5");
        AgentConfig config = new AgentConfig(props(), env, props());
        assertThat(config.getDouble("argus.tracing.samplingRate", 0, 0, 100)).isEqualTo(12.5);
        assertThat(ConfigSources.envName("argus.plugin.jdk-http-client.enabled", false))
                .isEqualTo("ARGUS_PLUGIN_JDK_HTTP_CLIENT_ENABLED");
    }

    @Test
    void badValuesFallBackToDefaultsWithAClearError() {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true));
        try {
            AgentConfig config = new AgentConfig(props("argus.tracing.samplingRate", "150",
                    "argus.metrics.interval", "soon", "argus.plugin.jetty.enabled", "maybe",
                    "argus.exporter.queueSize", "-1"), new HashMap<>(), props());
            assertThat(config.getDouble("argus.tracing.samplingRate", 0, 0, 100)).isZero();
            assertThat(config.getDurationMillis("argus.metrics.interval", 10_000, 100, 3_600_000)).isEqualTo(10_000);
            assertThat(config.getBoolean("argus.plugin.jetty.enabled", true)).isTrue();
            assertThat(config.getInt("argus.exporter.queueSize", 8192, 16, 1 << 22)).isEqualTo(8192);
        } finally {
            System.setErr(original);
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        assertThat(log).contains("invalid value '150' for argus.tracing.samplingRate: expected a number from 0 to 100")
                .contains("invalid value 'soon' for argus.metrics.interval")
                .contains("invalid value 'maybe' for argus.plugin.jetty.enabled: expected true or false")
                .contains("invalid value '-1' for argus.exporter.queueSize");
    }

    @Test
    void parsesDurationsAndPercentSigns() {
        AgentConfig config = new AgentConfig(props("a", "250ms", "b", "10s", "c", "2m", "d", "1500", "rate", "5%"),
                new HashMap<>(), props());
        assertThat(config.getDurationMillis("a", 0, 0, Long.MAX_VALUE)).isEqualTo(250);
        assertThat(config.getDurationMillis("b", 0, 0, Long.MAX_VALUE)).isEqualTo(10_000);
        assertThat(config.getDurationMillis("c", 0, 0, Long.MAX_VALUE)).isEqualTo(120_000);
        assertThat(config.getDurationMillis("d", 0, 0, Long.MAX_VALUE)).isEqualTo(1500);
        assertThat(config.getDouble("rate", 0, 0, 100)).isEqualTo(5);
    }

    @Test
    void settingsParseCollectorAddressAndPluginSwitches() {
        AgentSettings settings = new AgentSettings(new AgentConfig(props("argus.collector.address", "collector.local:7000",
                "argus.plugin.jetty.enabled", "false", "argus.service.name", "svc"), new HashMap<>(), props()));
        assertThat(settings.collectorHost).isEqualTo("collector.local");
        assertThat(settings.collectorPort).isEqualTo(7000);
        assertThat(settings.pluginEnabled("jetty")).isFalse();
        assertThat(settings.pluginEnabled("jvm")).isTrue();
        assertThat(settings.instance).startsWith("svc@");
    }

    @Test
    void collectorAddressTakesACommaSeparatedListAndSkipsBadEntries() {
        AgentSettings one = settings();
        assertThat(one.collectorList()).isEqualTo("127.0.0.1:9898");

        AgentSettings list = settings("argus.collector.address", " c1.local:7000 ,c2.local:7001,  10.0.0.3 : 9898 ");
        assertThat(list.collectorList()).isEqualTo("c1.local:7000,c2.local:7001,10.0.0.3:9898");
        assertThat(list.collectorAddresses.get(1).host).isEqualTo("c2.local");
        assertThat(list.collectorAddresses.get(1).port).isEqualTo(7001);
        assertThat(list.collectorHost).isEqualTo("c1.local");
        assertThat(list.collectorPort).isEqualTo(7000);

        String log = capturingErr(() -> {
            AgentSettings bad = settings("argus.collector.address",
                    "c1.local,,c2.local:70000,c3.local:7002, :7003,c4.local:x,c5.local:");
            assertThat(bad.collectorList()).isEqualTo("c3.local:7002");
        });
        assertThat(log).contains("invalid entry 'c1.local' in argus.collector.address: expected host:port")
                .contains("invalid entry '' in argus.collector.address")
                .contains("invalid entry 'c2.local:70000' in argus.collector.address")
                .contains("invalid entry ':7003' in argus.collector.address")
                .contains("invalid entry 'c4.local:x' in argus.collector.address")
                .contains("invalid entry 'c5.local:' in argus.collector.address")
                .doesNotContain("c3.local:7002'").doesNotContain("using the default");
        assertThat(log.split("invalid entry", -1)).as("each bad entry reported once").hasSize(7);

        log = capturingErr(() -> assertThat(settings("argus.collector.address", "c1.local, :0").collectorList())
                .isEqualTo(AgentSettings.DEFAULT_COLLECTOR));
        assertThat(log).contains("invalid value 'c1.local, :0' for argus.collector.address: expected host:port or a"
                + " comma-separated list of them; using the default 127.0.0.1:9898");

        log = capturingErr(() -> assertThat(settings("argus.collector.address", "c1.local").collectorList())
                .isEqualTo(AgentSettings.DEFAULT_COLLECTOR));
        assertThat(log).isEqualTo("[argus] ERROR invalid value 'c1.local' for argus.collector.address: expected"
                + " host:port; using the default 127.0.0.1:9898" + System.lineSeparator());
    }

    private static String capturingErr(Runnable action) {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true));
        try {
            action.run();
        } finally {
            System.setErr(original);
        }
        return new String(captured.toByteArray(), StandardCharsets.UTF_8);
    }

    @Test
    void maxDelayDefaultsToOneSecondAndTheDeprecatedFlushIntervalStillSetsIt() {
        assertThat(settings().maxDelayMillis).isEqualTo(1000);
        assertThat(settings("argus.exporter.maxDelay", "250ms").maxDelayMillis).isEqualTo(250);
        assertThat(settings("argus.exporter.flushInterval", "20ms").maxDelayMillis).isEqualTo(20);
        assertThat(settings("argus.exporter.flushInterval", "20ms", "argus.exporter.maxDelay", "2s").maxDelayMillis)
                .isEqualTo(2000);
    }

    @Test
    void maxUnackedBytesIsBoundedWithAClearErrorForBadValues() {
        assertThat(settings().maxUnackedBytes).isEqualTo(8 << 20);
        assertThat(settings("argus.exporter.maxUnackedBytes", "1048576").maxUnackedBytes).isEqualTo(1 << 20);
        String log = capturingErr(() -> {
            assertThat(settings("argus.exporter.maxUnackedBytes", "1000").maxUnackedBytes).isEqualTo(8 << 20);
            assertThat(settings("argus.exporter.maxUnackedBytes", "8MB").maxUnackedBytes).isEqualTo(8 << 20);
        });
        assertThat(log).contains("invalid value '1000' for argus.exporter.maxUnackedBytes: expected a whole number"
                + " from 65536 to 1073741824; using the default 8388608")
                .contains("invalid value '8MB' for argus.exporter.maxUnackedBytes");
    }

    private static AgentSettings settings(String... kv) {
        return new AgentSettings(new AgentConfig(props(kv), new HashMap<>(), props()));
    }
}
