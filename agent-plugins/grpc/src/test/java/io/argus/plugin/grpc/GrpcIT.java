package io.argus.plugin.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.grpc.app.ChainService;
import io.argus.plugin.grpc.app.GrpcApp;
import io.argus.testing.AbstractCollectorIT;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.grpc.CallOptions;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Three services in a chain, each a forked JVM with the agent at its defaults serving {@link ChainService} over
 * grpc-java's Netty transport, on JDK 17 and Temurin 25: a call of the first service's {@code Fanout}, which calls
 * the second's unary, server-streaming, client-streaming, bidi and failing methods, each of which calls the third's
 * {@code Unary}, is one trace of 19 spans with one root, every span named {@code argus.test.Chain/Method}, with the
 * gRPC status codes and the RPC metrics per method.
 */
class GrpcIT extends AbstractCollectorIT {

    private static final List<AgentApp> APPS = new ArrayList<>();

    @AfterAll
    static void stopApps() {
        APPS.forEach(AgentApp::close);
    }

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void aCallThroughThreeServicesWithEveryCallTypeIsOneTrace(String javaHome) throws Exception {
        String label = jdkLabel(javaHome);
        int leaf = start("grpc-c-" + label, javaHome);
        int middle = start("grpc-b-" + label, javaHome, String.valueOf(leaf));
        int edge = start("grpc-a-" + label, javaHome, String.valueOf(middle));

        String traceId = hex(32);
        String rootSpan = hex(16);
        Metadata metadata = new Metadata();
        metadata.put(Metadata.Key.of("traceparent", Metadata.ASCII_STRING_MARSHALLER),
                "00-" + traceId + "-" + rootSpan + "-01");
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", edge).usePlaintext().build();
        try {
            String answer = ClientCalls.blockingUnaryCall(
                    ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(metadata)),
                    ChainService.FANOUT, CallOptions.DEFAULT.withDeadlineAfter(60, TimeUnit.SECONDS), "go");
            assertThat(answer).contains("unary(unary(leaf:go))", "stream-2(", "2 received(", "echo(go-1)",
                    "fail=NOT_FOUND");
        } finally {
            channel.shutdownNow();
        }

        JsonNode trace = awaitTrace(traceId, 19);
        List<JsonNode> spans = list(trace.path("spans"));
        assertThat(spans).hasSize(19);
        Map<String, JsonNode> byId = new HashMap<>();
        spans.forEach(s -> byId.put(s.path("spanId").asText(), s));
        // one root: the edge's SERVER span, the child of the caller's span; every other parent is in the trace
        List<JsonNode> roots = spans.stream().filter(s -> !byId.containsKey(s.path("parentSpanId").asText())).toList();
        assertThat(roots).hasSize(1);
        assertThat(roots.get(0).path("parentSpanId").asText()).isEqualToIgnoringCase(rootSpan);
        assertThat(roots.get(0).path("name").asText()).isEqualTo("argus.test.Chain/Fanout");
        assertThat(roots.get(0).path("service").asText()).isEqualTo("grpc-a-" + label);

        // each CLIENT span's child is the SERVER span of the same method in the next service
        List<String> clientMethods = new ArrayList<>();
        for (JsonNode client : spans(trace, "CLIENT")) {
            String name = client.path("name").asText();
            clientMethods.add(client.path("service").asText() + " " + name);
            List<JsonNode> children = spans.stream()
                    .filter(s -> s.path("parentSpanId").asText().equals(client.path("spanId").asText())).toList();
            assertThat(children).as("server of %s", name).hasSize(1);
            assertThat(children.get(0).path("kind").asText()).isEqualTo("SERVER");
            assertThat(children.get(0).path("name").asText()).isEqualTo(name);
            assertThat(client.path("tags").path("rpc.system").asText()).isEqualTo("grpc");
            assertThat(client.path("tags").path("peer").asText()).startsWith("127.0.0.1:");
        }
        assertThat(clientMethods).containsExactlyInAnyOrder(
                "grpc-a-" + label + " argus.test.Chain/Unary", "grpc-a-" + label + " argus.test.Chain/ServerStream",
                "grpc-a-" + label + " argus.test.Chain/ClientStream", "grpc-a-" + label + " argus.test.Chain/Bidi",
                "grpc-a-" + label + " argus.test.Chain/Fail",
                "grpc-b-" + label + " argus.test.Chain/Unary", "grpc-b-" + label + " argus.test.Chain/Unary",
                "grpc-b-" + label + " argus.test.Chain/Unary", "grpc-b-" + label + " argus.test.Chain/Unary");
        Set<String> leafServers = new HashSet<>();
        spans(trace, "SERVER").stream().filter(s -> s.path("service").asText().equals("grpc-c-" + label))
                .forEach(s -> leafServers.add(s.path("spanId").asText()));
        assertThat(leafServers).hasSize(4);

        // status codes: NOT_FOUND is an error for the caller, not a server fault
        JsonNode failClient = spans(trace, "CLIENT").stream()
                .filter(s -> s.path("name").asText().endsWith("/Fail")).findFirst().orElseThrow();
        assertThat(failClient.path("status").asText()).isEqualTo("ERROR");
        assertThat(failClient.path("tags").path("rpc.grpc.status_code").asText()).isEqualTo("5");
        JsonNode failServer = byIdChild(spans, failClient);
        assertThat(failServer.path("tags").path("rpc.grpc.status_code").asText()).isEqualTo("5");
        assertThat(failServer.path("status").asText()).isEqualTo("OK");
        assertThat(roots.get(0).path("tags").path("rpc.grpc.status_code").asText()).isEqualTo("0");

        // the RPC metrics, per method and status code
        JsonNode served = awaitMetric("grpc-b-" + label, "rpc_server", "argus.test.Chain/Fail");
        assertThat(served.path("status").asInt()).isEqualTo(5);
        assertThat(served.path("errors").asLong()).isZero();
        JsonNode called = awaitMetric("grpc-a-" + label, "rpc_client", "argus.test.Chain/Fail");
        assertThat(called.path("status").asInt()).isEqualTo(5);
        assertThat(called.path("errors").asLong()).isEqualTo(1);
        // the four calls may straddle a metrics flush: wait for the sum, fail if it overshoots
        assertThat(awaitMetric("grpc-c-" + label, "rpc_server", "argus.test.Chain/Unary", 4).path("count").asLong())
                .isEqualTo(4);
        assertThat(agentGauge("grpc-b-" + label, "agent.advice.errors")).isZero();
    }

    private static JsonNode byIdChild(List<JsonNode> spans, JsonNode parent) {
        return spans.stream().filter(s -> s.path("parentSpanId").asText().equals(parent.path("spanId").asText()))
                .findFirst().orElseThrow();
    }

    private static JsonNode awaitMetric(String service, String kind, String method) {
        return awaitMetric(service, kind, method, 1);
    }

    private static JsonNode awaitMetric(String service, String kind, String method, long atLeast) {
        return CollectorClient.await(kind + " " + method + " of " + service, WAIT, () -> {
            for (JsonNode row : api.get("/api/metrics/http?service=" + service + "&kind=" + kind)) {
                if (row.path("target").asText().equals(method) && row.path("method").asText().equals("grpc")) {
                    return row;
                }
            }
            return null;
        }, row -> row.path("count").asLong() >= atLeast);
    }

    private static int start(String service, String javaHome, String... args) {
        AgentApp app = AgentApp.builder(GrpcApp.class.getName()).javaHome(javaHome).service(service)
                .collector(collector.ingestPort()).logToTestLogs(service).args(args).start();
        APPS.add(app);
        return Integer.parseInt(app.awaitLine("^PORT (\\d+)$", WAIT).group(1));
    }
}
