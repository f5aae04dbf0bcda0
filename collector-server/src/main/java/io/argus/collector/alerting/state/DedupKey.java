package io.argus.collector.alerting.state;

import io.argus.collector.alerting.rules.AlertRule;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The de-duplication key of a rule's alert: the same for every notification about the same rule and scope (so a
 * receiver folds a firing and its resolution into one incident), different as soon as the scope or signal changes.
 */
public final class DedupKey {
    private DedupKey() {
    }

    public static String of(AlertRule rule) {
        String identity = String.join("\u0000", rule.name(), rule.service(), String.valueOf(rule.kind()),
                String.valueOf(rule.method()), String.valueOf(rule.route()), String.valueOf(rule.instance()),
                String.valueOf(rule.gauge()), rule.signal().id(), rule.comparison());
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 10);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
