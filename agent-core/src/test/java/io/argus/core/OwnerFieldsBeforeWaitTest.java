package io.argus.core;

import io.argus.core.config.AgentConfig;
import io.argus.core.config.AgentSettings;
import io.argus.core.plugin.FieldDeclaration;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

class OwnerFieldsBeforeWaitTest {

    private static final FieldDeclaration LIBRARY =
            new FieldDeclaration("org.eclipse.jetty.server.internal.HttpChannelState$ChannelRequest", "jetty.span", false);
    private static final FieldDeclaration JDK = new FieldDeclaration("java.util.concurrent.ForkJoinTask", "context.carried", false);

    private static final String EARLY = "argus.startup.earlyFields";

    @Test
    void byDefaultNothingIsRegisteredBeforeTheWait() {
        assertThat(AgentStartup.ownerFieldsBeforeWait(settings(), Arrays.asList(JDK, LIBRARY))).isFalse();
    }

    @Test
    void earlyFieldsOnRegistersLibraryOwnersBeforeTheWait() {
        assertThat(AgentStartup.ownerFieldsBeforeWait(settings(EARLY, "true"), Arrays.asList(JDK, LIBRARY))).isTrue();
        assertThat(AgentStartup.ownerFieldsBeforeWait(settings(EARLY, "on"), List.of(LIBRARY))).isTrue();
    }

    @Test
    void jdkOwnersAloneWait() {
        assertThat(AgentStartup.ownerFieldsBeforeWait(settings(EARLY, "true"), List.of(JDK))).isFalse();
        assertThat(AgentStartup.ownerFieldsBeforeWait(settings(EARLY, "true"), List.of())).isFalse();
    }

    @Test
    void withoutOwnerFieldsNothingIsRegisteredEarly() {
        assertThat(AgentStartup.ownerFieldsBeforeWait(settings(EARLY, "true", "argus.state.ownerFields", "false"),
                List.of(LIBRARY))).isFalse();
    }

    @Test
    void aBadValueKeepsTheDefault() {
        assertThat(settings(EARLY, "sometimes").startupEarlyFields).isFalse();
        assertThat(settings("argus.state.ownerFields", "maybe").ownerFields).isTrue();
    }

    private static AgentSettings settings(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        return new AgentSettings(new AgentConfig(p, new HashMap<>(), new Properties()));
    }
}
