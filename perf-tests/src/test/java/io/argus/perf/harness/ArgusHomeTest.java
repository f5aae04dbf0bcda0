package io.argus.perf.harness;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ArgusHomeTest {

    @Test
    void pluginNamesFromJarNames() {
        assertThat(ArgusHome.pluginName("argus-plugin-jdk-http-client-0.1.0-SNAPSHOT.jar")).isEqualTo("jdk-http-client");
        assertThat(ArgusHome.pluginName("argus-plugin-jetty.jar")).isEqualTo("jetty");
        assertThat(ArgusHome.pluginName("argus-plugin-netty3-client-1.2.jar")).isEqualTo("netty3-client");
        assertThat(ArgusHome.pluginName("something-else.jar")).isNull();
    }
}
