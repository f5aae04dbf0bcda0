package io.argus.collector.alerting.rules;

import java.time.Duration;
import java.util.List;

/**
 * One rule of the rules file.
 *
 * @param name       unique in the file; names the alert
 * @param service    the service watched
 * @param kind       which calls ({@code server}, {@code client}, {@code db}); for call signals only
 * @param method     only calls of this method; {@code null} for all
 * @param route      only this route (server) or target (client host, database); {@code null} for all
 * @param instance   for {@link SignalKind#AGENT_SILENT} and {@link SignalKind#DROPPED_SPANS}: one instance only
 * @param gauge      for {@link SignalKind#JVM_GAUGE}: the gauge's name, e.g. {@code jvm.heap.used}
 * @param signal     what is compared
 * @param above      {@code true}: fires when the value is above {@code threshold}; {@code false}: below
 * @param threshold  the bound, in the signal's unit
 * @param window     the span of data each evaluation reads
 * @param pendingFor how long the condition must hold before the alert fires ({@code for} in the file)
 * @param minCalls   call signals other than the request rate stay quiet on fewer calls than this in the window
 * @param severity   free text passed to notifications ({@code warning} unless given)
 * @param channels   names of the channels notified, in the file's order
 * @param line       the rule's line in the file, for messages
 */
public record AlertRule(String name, String service, String kind, String method, String route, String instance,
                        String gauge, SignalKind signal, boolean above, double threshold, Duration window,
                        Duration pendingFor, long minCalls, String severity, List<String> channels, int line) {

    public AlertRule {
        channels = List.copyOf(channels);
    }

    /** Whether {@code value} breaks the bound. */
    public boolean breached(double value) {
        return above ? value > threshold : value < threshold;
    }

    /** {@code above} or {@code below}, as in the file. */
    public String comparison() {
        return above ? "above" : "below";
    }
}
