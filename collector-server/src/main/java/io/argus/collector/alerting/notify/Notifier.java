package io.argus.collector.alerting.notify;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.collector.alerting.rules.ChannelSpec;
import io.argus.collector.alerting.state.AlertEvent;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

/**
 * Hands firing and resolved events to the channels their rule names. Each channel delivers on its own thread
 * ({@link ChannelDispatcher}); {@link #notify(AlertEvent)} never waits for one.
 */
public final class Notifier implements AutoCloseable {
    /** The first retry's delay; later ones double. */
    public static final long DEFAULT_BACKOFF_MS = 1_000;

    private final NotifyMetrics metrics;
    private final Supplier<String> baseUrl;
    private final long backoffUnitMs;
    private final ObjectMapper json = new ObjectMapper();
    private final ScheduledExecutorService retryTimer;
    private final HttpClient http;
    private volatile Map<String, ChannelDispatcher> channels = Map.of();

    /**
     * @param baseUrl       the UI's address for links, asked per notification (the rules file may change it)
     * @param backoffUnitMs the first retry's delay
     */
    public Notifier(MeterRegistry meters, Supplier<String> baseUrl, long backoffUnitMs) {
        this.metrics = new NotifyMetrics(meters);
        this.baseUrl = baseUrl;
        this.backoffUnitMs = backoffUnitMs;
        this.retryTimer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "argus-notify-retry");
            t.setDaemon(true);
            return t;
        });
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** Takes the rules file's channels: unchanged ones keep their queue and counters, the rest start anew. */
    public synchronized void configure(List<ChannelSpec> specs) {
        Map<String, ChannelDispatcher> old = channels;
        Map<String, ChannelDispatcher> next = new LinkedHashMap<>();
        for (ChannelSpec spec : specs) {
            ChannelDispatcher kept = old.get(spec.name());
            next.put(spec.name(), kept != null && kept.spec().equals(spec) ? kept : dispatcher(spec));
        }
        channels = next;
        old.forEach((name, d) -> {
            if (next.get(name) != d) {
                d.close();
            }
        });
    }

    private ChannelDispatcher dispatcher(ChannelSpec spec) {
        Duration timeout = Duration.ofMillis(spec.timeoutMs());
        NotificationChannel channel = switch (spec.type()) {
            case ChannelSpec.WEBHOOK -> WebhookChannel.generic(http, spec.url(), timeout, json, baseUrl);
            case ChannelSpec.SLACK -> WebhookChannel.slack(http, spec.url(), timeout, json, baseUrl);
            case ChannelSpec.EMAIL -> new EmailChannel(spec.smtp(), spec.timeoutMs(), baseUrl);
            default -> throw new IllegalArgumentException("unknown channel type " + spec.type());
        };
        return new ChannelDispatcher(spec, channel, retryTimer, backoffUnitMs, metrics);
    }

    /** Queues {@code event} on each channel its rule names (firing and resolved events only). */
    public void notify(AlertEvent event) {
        if (!event.notifies()) {
            return;
        }
        Map<String, ChannelDispatcher> current = channels;
        for (String name : event.rule().channels()) {
            ChannelDispatcher d = current.get(name);
            if (d != null) {
                d.offer(event);
            }
        }
    }

    /**
     * What the API shows of a channel: never its URL or password, only where they came from.
     */
    public record ChannelStatus(String name, String type, String secretSource, long sent, long failedAttempts,
                                long dropped, long lastSentMs, long lastFailedMs, String lastError) {
    }

    public List<ChannelStatus> status() {
        List<ChannelStatus> out = new ArrayList<>();
        for (ChannelDispatcher d : channels.values()) {
            ChannelSpec s = d.spec();
            out.add(new ChannelStatus(s.name(), s.type(), s.secretSource(), d.sent.get(), d.failed.get(),
                    d.dropped.get(), d.lastSentMs, d.lastFailedMs, d.lastError));
        }
        return out;
    }

    @Override
    public void close() {
        retryTimer.shutdownNow();
        channels.values().forEach(ChannelDispatcher::close);
        channels = Map.of();
    }
}
