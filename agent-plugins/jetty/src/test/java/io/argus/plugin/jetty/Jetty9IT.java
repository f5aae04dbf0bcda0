package io.argus.plugin.jetty;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.jetty.app.Jetty9App;
import io.argus.testing.AgentApp;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Jetty 9.4 (the version Apache Druid ships), servlets on jetty-servlet, from the test class path. */
class Jetty9IT extends AbstractJettyIT {

    @Override
    String jetty() {
        return System.getProperty("argus.test.jetty9.version", "9.4");
    }

    @Override
    protected String mainClass() {
        return Jetty9App.class.getName();
    }

    @Override
    protected String classpath() {
        return AgentApp.applicationClasspath();
    }

    /**
     * An async request whose client closed the connection before the response (as Druid's router does to a
     * broker when its own client gives up): the server span still ends, once Jetty completes the request, so
     * that the spans of what the request called are not left without their parent.
     */
    @Test
    void anAsyncRequestWhoseClientLeftStillEndsItsSpan() throws Exception {
        String service = service("abandoned", JDK);
        try (AgentApp app = start(service, JDK, 100).start()) {
            int port = readyPort(app);
            try (Socket socket = new Socket("127.0.0.1", port)) {
                OutputStream out = socket.getOutputStream();
                out.write(("GET /async-abandoned HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                Thread.sleep(100);
            }
            assertThat(get(port, "/hello/after")).isEqualTo(200);
            List<JsonNode> traces = awaitTraces(service, 2);
            assertThat(rootNames(traces)).containsExactlyInAnyOrder("GET /async-abandoned", "GET /hello/after");
            JsonNode span = singleSpan(traceIdOf(traces, "GET /async-abandoned"));
            assertThat(span.path("durationNanos").asLong()).as("ended once Jetty completed it")
                    .isGreaterThanOrEqualTo(Jetty9App.ABANDONED_DELAY_MS * 1_000_000);
        }
    }
}
