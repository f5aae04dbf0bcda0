package io.argus.collector.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Rules files for the alerting tests that run the sample services (embedded and Druid query node alike). */
public final class AlertRulesFiles {
    private AlertRulesFiles() {
    }

    /**
     * Writes {@code rules.yaml} (and the webhook URL in {@code hook-url} beside it, read through {@code url_file}):
     * rule {@code front failing}, front's {@code /front/fail} error rate above 20 % over {@code window}, notifying
     * webhook {@code hook} and e-mail {@code mail} (an SMTP server on loopback, no TLS, no login).
     */
    public static Path frontFailing(Path dir, String hookUrl, int smtpPort, String interval, String window)
            throws IOException {
        Files.writeString(dir.resolve("hook-url"), hookUrl);
        return Files.writeString(dir.resolve("rules.yaml"), """
                evaluation_interval: %s
                channels:
                  - name: hook
                    type: webhook
                    url_file: hook-url
                  - name: mail
                    type: email
                    smtp_host: 127.0.0.1
                    smtp_port: %d
                    tls: none
                    from: argus@example.com
                    to: oncall@example.com
                rules:
                  - name: front failing
                    service: front
                    route: /front/fail
                    signal: error_rate
                    above: 20%%
                    window: %s
                    severity: critical
                    channels: [hook, mail]
                """.formatted(interval, smtpPort, window));
    }
}
