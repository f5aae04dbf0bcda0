package io.argus.collector.ingest;

import io.argus.collector.storage.AgentDirectory;
import io.argus.collector.storage.AgentInfo;
import io.argus.collector.storage.ServiceSummary;
import io.argus.collector.storage.Source;
import io.argus.protocol.Handshake;
import io.argus.protocol.Heartbeat;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Live view of every agent instance (by service and instance): handshake, connection state, last contact
 * and latest heartbeat counters. Thread-safe; updated from the ingest threads, read by the HTTP API and
 * periodically persisted through {@link #drainDirty()}.
 */
public final class AgentRegistry implements AgentDirectory {
    /** An OTLP sender counts as connected while its last export is at most this old. */
    public static final long OTLP_CONNECTED_MS = 120_000;

    private final ConcurrentHashMap<Source, State> agents = new ConcurrentHashMap<>();

    private static final class State {
        final Source source;
        volatile Handshake handshake;
        volatile String remoteAddress;
        volatile long connectedAtMs;
        volatile long lastSeenMs;
        volatile Heartbeat heartbeat;
        volatile boolean dirty = true;
        /** Known from OTLP exports rather than from an agent connection. */
        volatile boolean otlp;
        final AtomicInteger connections = new AtomicInteger();
        final LongAdder spansReceived = new LongAdder();
        // restored from storage until the agent connects again
        volatile AgentInfo restored;

        State(Source source) {
            this.source = source;
        }
    }

    /** Restores agents saved before a restart (shown as disconnected). */
    public void restore(List<AgentInfo> saved) {
        for (AgentInfo a : saved) {
            State s = agents.computeIfAbsent(new Source(a.service(), a.instance()), State::new);
            s.restored = a;
            s.remoteAddress = a.remoteAddress();
            s.connectedAtMs = a.connectedAtMs();
            s.lastSeenMs = a.lastSeenMs();
            s.spansReceived.add(a.spansReceived());
            s.dirty = false;
        }
    }

    void connected(AgentSession session) {
        State s = agents.computeIfAbsent(session.source(), State::new);
        s.handshake = session.handshake();
        s.remoteAddress = session.remoteAddress();
        s.connectedAtMs = session.connectedAtMs();
        s.lastSeenMs = session.connectedAtMs();
        s.connections.incrementAndGet();
        s.dirty = true;
    }

    void disconnected(AgentSession session) {
        State s = agents.get(session.source());
        if (s != null) {
            s.connections.decrementAndGet();
            s.lastSeenMs = System.currentTimeMillis();
            s.dirty = true;
        }
    }

    void seen(AgentSession session, long nowMs) {
        State s = agents.get(session.source());
        if (s != null) {
            s.lastSeenMs = nowMs;
            s.dirty = true;
        }
    }

    void spans(AgentSession session, int n) {
        State s = agents.get(session.source());
        if (s != null) {
            s.spansReceived.add(n);
        }
    }

    void heartbeat(AgentSession session, Heartbeat hb) {
        State s = agents.get(session.source());
        if (s != null) {
            s.heartbeat = hb;
            s.dirty = true;
        }
    }

    /**
     * An OTLP export from {@code source} (no connection and no handshake): {@code details} holds what its resource
     * told (agent version {@code otlp}, host, pid, runtime). It shows among the agents, connected while it keeps
     * exporting.
     */
    public void otlpExport(Source source, Handshake details, String remoteAddress, int spans, long nowMs) {
        State s = agents.computeIfAbsent(source, State::new);
        if (!s.otlp || s.handshake == null || nowMs - s.lastSeenMs > OTLP_CONNECTED_MS) {
            s.connectedAtMs = nowMs;
        }
        s.otlp = true;
        s.handshake = details;
        s.remoteAddress = remoteAddress;
        s.lastSeenMs = nowMs;
        s.spansReceived.add(spans);
        s.dirty = true;
    }

    /** Every known agent, sorted by service then instance. */
    @Override
    public List<AgentInfo> agents() {
        List<AgentInfo> out = new ArrayList<>(agents.size());
        for (State s : agents.values()) {
            out.add(info(s));
        }
        out.sort(Comparator.comparing(AgentInfo::service).thenComparing(AgentInfo::instance));
        return out;
    }

    /** Agents changed since the last call (for persistence). */
    public List<AgentInfo> drainDirty() {
        List<AgentInfo> out = new ArrayList<>();
        for (State s : agents.values()) {
            if (s.dirty) {
                s.dirty = false;
                out.add(info(s));
            }
        }
        return out;
    }

    /** Services sorted by name, each with its sorted instances and latest contact. */
    @Override
    public List<ServiceSummary> services() {
        Map<String, TreeSet<String>> instances = new TreeMap<>();
        Map<String, Long> lastSeen = new TreeMap<>();
        for (State s : agents.values()) {
            instances.computeIfAbsent(s.source.service(), k -> new TreeSet<>()).add(s.source.instance());
            lastSeen.merge(s.source.service(), s.lastSeenMs, Math::max);
        }
        List<ServiceSummary> out = new ArrayList<>(instances.size());
        instances.forEach((service, names) ->
                out.add(new ServiceSummary(service, List.copyOf(names), lastSeen.get(service))));
        return out;
    }

    private static AgentInfo info(State s) {
        Handshake h = s.handshake;
        Heartbeat hb = s.heartbeat;
        AgentInfo old = s.restored;
        boolean connected = s.connections.get() > 0
                || (s.otlp && System.currentTimeMillis() - s.lastSeenMs <= OTLP_CONNECTED_MS);
        if (h == null && old != null) {
            return new AgentInfo(old.service(), old.instance(), old.agentVersion(), old.host(), old.pid(),
                    old.startTimeMs(), old.runtimeVersion(), old.protocolVersion(), s.remoteAddress, connected,
                    s.connectedAtMs, s.lastSeenMs,
                    hb != null ? hb.getTimestampMs() : old.lastHeartbeatMs(),
                    hb != null ? hb.getDroppedSpans() : old.droppedSpans(),
                    hb != null ? hb.getDroppedMetrics() : old.droppedMetrics(),
                    hb != null ? hb.getAdviceErrors() : old.adviceErrors(),
                    hb != null ? hb.getSentSpans() : old.sentSpans(),
                    s.spansReceived.sum(), old.startupMode(), old.observingSinceMs());
        }
        return new AgentInfo(
                s.source.service(), s.source.instance(),
                h == null ? "" : h.getAgentVersion(),
                h == null ? "" : h.getHost(),
                h == null ? 0 : h.getPid(),
                h == null ? 0 : h.getStartTimeMs(),
                h == null ? "" : h.getRuntimeVersion(),
                h == null ? 0 : h.getProtocolVersion(),
                s.remoteAddress, connected, s.connectedAtMs, s.lastSeenMs,
                hb == null ? 0 : hb.getTimestampMs(),
                hb == null ? 0 : hb.getDroppedSpans(),
                hb == null ? 0 : hb.getDroppedMetrics(),
                hb == null ? 0 : hb.getAdviceErrors(),
                hb == null ? 0 : hb.getSentSpans(),
                s.spansReceived.sum(),
                h == null ? "" : h.getStartupMode(),
                h == null ? 0 : h.getObservingSinceMs());
    }
}
