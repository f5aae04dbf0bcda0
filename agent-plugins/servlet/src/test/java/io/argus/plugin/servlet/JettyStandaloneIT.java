package io.argus.plugin.servlet;

import org.junit.jupiter.api.Test;

/** Jetty 9.4 (Servlet 3.1, the oldest javax.servlet tested) with the jetty plugin off: the servlet plugin records. */
class JettyStandaloneIT extends AbstractServletIT {

    @Override
    String name() {
        return "jetty9";
    }

    @Override
    String container() {
        return System.getProperty("argus.test.jetty9");
    }

    @Override
    boolean jakarta() {
        return false;
    }

    @Override
    String containerPlugin() {
        return "jetty";
    }

    @Override
    boolean containerPluginOn() {
        return false;
    }

    /**
     * An application request-attribute listener that throws cannot leave a traced request's span current
     * on the worker thread: the plugin keeps its state in fields, never in request attributes, and makes
     * the span current last. Untraced requests after it on the same thread see no context.
     */
    @org.junit.jupiter.api.Test
    void aThrowingAttributeListenerLeavesNoSpanOnTheThread() throws Exception {
        String service = service("listener", JDK);
        try (io.argus.testing.AgentApp app = start(service, JDK, 0).args("--throwing-attribute-listener").start()) {
            int port = readyPort(app);
            for (int i = 0; i < 5; i++) {
                // traced by its caller's sampled context; /ctx is untraced at 0% and must find no context
                org.assertj.core.api.Assertions.assertThat(get(port, "/hello/listener", "traceparent", w3cSampled)).isEqualTo(200);
                org.assertj.core.api.Assertions.assertThat(get(port, "/ctx")).as("context after a traced request")
                        .isEqualTo(200);
            }
            awaitServerMetrics(service, java.util.Map.of("GET /hello/listener 200", 5L, "GET /ctx 200", 5L));
            org.assertj.core.api.Assertions.assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
    }

    @Test
    void namesRequestsByServletMappingWhenAsked() throws Exception {
        verifyNamesByServletMapping(false);
    }
}
