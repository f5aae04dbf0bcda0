package io.argus.bootstrap.handoff;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

class StartupModeTest {

    @Test
    void parallelByDefault() {
        StartupMode.Decision decision = StartupMode.decide(sources(new Properties(), new HashMap<>(), new Properties()));
        assertThat(decision.mode).isEqualTo(StartupMode.PARALLEL);
        assertThat(decision.error).isNull();
        assertThat(decision.warning).isNull();
    }

    @Test
    void eachModeByNameFromEverySource() {
        assertThat(StartupMode.decide(sources(props("argus.startup.mode", "deferred"), new HashMap<>(), new Properties())).mode)
                .isEqualTo(StartupMode.DEFERRED);
        Map<String, String> env = new HashMap<>();
        env.put("ARGUS_STARTUP_MODE", "PreMain");
        assertThat(StartupMode.decide(sources(new Properties(), env, new Properties())).mode).isEqualTo(StartupMode.PREMAIN);
        assertThat(StartupMode.decide(sources(new Properties(), new HashMap<>(), props("argus.startup.mode", " parallel "))).mode)
                .isEqualTo(StartupMode.PARALLEL);
        // the system property wins over the file
        assertThat(StartupMode.decide(sources(props("argus.startup.mode", "premain"), new HashMap<>(),
                props("argus.startup.mode", "deferred"))).mode).isEqualTo(StartupMode.PREMAIN);
    }

    @Test
    void aBadValueIsOneErrorAndTheDefault() {
        StartupMode.Decision decision = StartupMode.decide(sources(props("argus.startup.mode", "lazy"), new HashMap<>(),
                new Properties()));
        assertThat(decision.mode).isEqualTo(StartupMode.PARALLEL);
        assertThat(decision.error).isEqualTo("invalid value 'lazy' for argus.startup.mode: expected parallel, premain"
                + " or deferred; using the default parallel");
    }

    @Test
    void theReplacedKeyStillChoosesWithAWarning() {
        StartupMode.Decision wait = StartupMode.decide(sources(props("argus.startup.waitForInstrumentation", "true"),
                new HashMap<>(), new Properties()));
        assertThat(wait.mode).isEqualTo(StartupMode.PREMAIN);
        assertThat(wait.warning).contains("replaced by argus.startup.mode");
        Map<String, String> env = new HashMap<>();
        env.put("ARGUS_STARTUP_WAIT_FOR_INSTRUMENTATION", "false");
        assertThat(StartupMode.decide(sources(new Properties(), env, new Properties())).mode).isEqualTo(StartupMode.DEFERRED);
        StartupMode.Decision bad = StartupMode.decide(sources(props("argus.startup.waitForInstrumentation", "maybe"),
                new HashMap<>(), new Properties()));
        assertThat(bad.mode).isEqualTo(StartupMode.PARALLEL);
        assertThat(bad.error).contains("'maybe'");
        // the new key wins
        Properties both = props("argus.startup.waitForInstrumentation", "true");
        both.setProperty("argus.startup.mode", "deferred");
        assertThat(StartupMode.decide(sources(both, new HashMap<>(), new Properties())).mode).isEqualTo(StartupMode.DEFERRED);
    }

    static ConfigSources sources(Properties system, Map<String, String> env, Properties file) {
        return new ConfigSources(system, env, file);
    }

    static Properties props(String key, String value) {
        Properties p = new Properties();
        p.setProperty(key, value);
        return p;
    }
}
