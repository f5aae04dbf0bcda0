package io.argus.collector.alerting.rules;

import java.time.Duration;
import java.util.List;

/**
 * A whole rules file.
 *
 * @param interval  how often every rule is evaluated
 * @param publicUrl base URL of the collector's UI as a notification's reader reaches it (links); {@code null}: the
 *                  collector's own address
 * @param rules     in the file's order
 * @param channels  in the file's order
 */
public record RuleSet(Duration interval, String publicUrl, List<AlertRule> rules, List<ChannelSpec> channels) {
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(15);

    public RuleSet {
        rules = List.copyOf(rules);
        channels = List.copyOf(channels);
    }

    /** No rule and no channel: what runs before a file is read, or without one. */
    public static RuleSet empty() {
        return new RuleSet(DEFAULT_INTERVAL, null, List.of(), List.of());
    }
}
