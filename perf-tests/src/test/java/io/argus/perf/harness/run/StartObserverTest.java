package io.argus.perf.harness.run;

import com.sun.net.httpserver.HttpServer;
import io.argus.perf.harness.http.RequestSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The probing against a real HTTP server on loopback that remembers each probe's traceparent, with a trace
 * store that "exports" a probe's trace after a delay once the agent is "up": the case of the deferred
 * start-up, the default one (the first answer traced) and the bound. The test against the real agent and
 * collector is the distribution's ObservedStartupIT.
 */
class StartObserverTest {

    private HttpServer server;
    /** traceparent trace id to when the server answered it (nanoTime). */
    private final Map<String, Long> answered = new ConcurrentHashMap<>();
    private final AtomicInteger requests = new AtomicInteger();
    private RequestSpec readiness;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/ping", exchange -> {
            String tp = exchange.getRequestHeaders().getFirst("traceparent");
            if (tp != null && tp.matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01")) {
                answered.put(tp.substring(3, 35), System.nanoTime());
            }
            requests.incrementAndGet();
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        readiness = RequestSpec.get("http://127.0.0.1:" + server.getAddress().getPort() + "/ping");
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    /** Traces of requests the server answered after {@code upAt}, stored {@code lagMillis} after their answer. */
    private StartObserver.TraceStore agentUpAt(long upAt, long lagMillis, Set<String> asked) {
        return traceId -> {
            asked.add(traceId);
            Long at = answered.get(traceId);
            return at != null && at >= upAt && System.nanoTime() - at >= lagMillis * 1_000_000;
        };
    }

    @Test
    void theEarliestStoredProbeIsTheFirstAnsweredOnceTheAgentIsUp() throws Exception {
        ProbeRequest first = ProbeRequest.send(readiness, 1000);
        assertThat(first.status()).isEqualTo(200);
        long upAt = first.sentNanos() + Duration.ofMillis(400).toNanos();
        Set<String> asked = ConcurrentHashMap.newKeySet();
        StartObserver.Observation o = new StartObserver(agentUpAt(upAt, 300, asked), Duration.ofSeconds(30))
                .observe(readiness, first, () -> true);

        assertThat(o.note()).isNull();
        assertThat(o.observed()).isNotNull();
        int at = o.probes().indexOf(o.observed());
        assertThat(answered.get(o.observed().traceId())).isGreaterThanOrEqualTo(upAt);
        assertThat(answered.get(o.probes().get(at - 1).traceId())).as("the probe before").isLessThan(upAt);
        assertThat(o.unobserved()).isEqualTo(at);
        // at most every 10 ms at first: no more than 41 probes in the 400 ms before the agent was up
        assertThat(at).isBetween(1, 41);
        assertThat(o.probes()).allMatch(ProbeRequest::answered);
        // every probe is a request of its own, with a traceparent of its own
        assertThat(o.probes().stream().map(ProbeRequest::traceId).distinct()).hasSize(o.probes().size());
        assertThat(requests.get()).isEqualTo(o.probes().size());
    }

    @Test
    void anAgentUpBeforeTheFirstAnswerIsObservedAtIt() throws Exception {
        ProbeRequest first = ProbeRequest.send(readiness, 1000);
        Set<String> asked = ConcurrentHashMap.newKeySet();
        StartObserver.Observation o = new StartObserver(agentUpAt(0, 100, asked), Duration.ofSeconds(30))
                .observe(readiness, first, () -> true);
        assertThat(o.observed()).isEqualTo(first);
        assertThat(o.unobserved()).isZero();
        // it looked for a probe older than the export lag, then back to the first: a few queries, not one a probe
        assertThat(asked.size()).isLessThan(o.probes().size() / 2);
    }

    @Test
    void probingStopsAtTheBoundOrWhenTheProcessIsGone() throws Exception {
        ProbeRequest first = ProbeRequest.send(readiness, 1000);
        StartObserver.Observation never = new StartObserver(id -> false, Duration.ofMillis(800))
                .observe(readiness, first, () -> true);
        assertThat(never.observed()).isNull();
        assertThat(never.note()).isNull();
        assertThat(never.stoppedNanos() - first.sentNanos()).isGreaterThanOrEqualTo(Duration.ofMillis(800).toNanos());
        assertThat(never.unobserved()).isEqualTo(never.probes().size());

        StartObserver.Observation gone = new StartObserver(id -> false, Duration.ofSeconds(30))
                .observe(readiness, first, () -> false);
        assertThat(gone.observed()).isNull();
        assertThat(gone.note()).isEqualTo("the process exited");

        StartObserver.Observation broken = new StartObserver(id -> {
            throw new IOException("GET /api/traces/x answered 500");
        }, Duration.ofSeconds(30)).observe(readiness, first, () -> true);
        assertThat(broken.observed()).isNull();
        assertThat(broken.note()).contains("answered 500");
    }
}
