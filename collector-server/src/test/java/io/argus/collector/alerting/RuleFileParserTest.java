package io.argus.collector.alerting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.argus.collector.alerting.rules.AlertRule;
import io.argus.collector.alerting.rules.ChannelSpec;
import io.argus.collector.alerting.rules.RuleFileException;
import io.argus.collector.alerting.rules.RuleFileParser;
import io.argus.collector.alerting.rules.RuleSet;
import io.argus.collector.alerting.rules.SignalKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rules file: every key, the secrets' sources, and one error naming the line for each kind of mistake. */
class RuleFileParserTest {
    @TempDir
    Path dir;

    private final RuleFileParser parser = new RuleFileParser(Map.of("HOOK_URL", "https://hooks.example/T1/secret")::get);

    static final String FULL = """
            evaluation_interval: 5s
            public_url: https://argus.example.com/
            channels:
              - name: ops-hook
                type: webhook
                url_file: hook-url
                timeout: 2s
                retries: 3
              - name: ops-slack
                type: slack
                url_env: HOOK_URL
              - name: ops-mail
                type: email
                smtp_host: 127.0.0.1
                smtp_port: 2525
                tls: none
                username: argus
                password_file: smtp-password
                from: argus@example.com
                to: [oncall@example.com, lead@example.com]
            rules:
              - name: checkout errors
                service: front
                route: /checkout
                method: post
                signal: error_rate
                above: 5%
                window: 1m
                for: 30s
                min_calls: 10
                severity: critical
                channels: [ops-hook, ops-mail]
              - name: slow stock calls
                service: front
                target: stock:8080
                signal: p99_latency
                above: 1.5s
              - name: quiet front
                service: front
                signal: request_rate
                below: 0.5
                channels: ops-slack
              - name: back silent
                service: back
                signal: agent_silent
                above: 5m
              - name: heap
                service: back
                instance: back-1
                signal: jvm_gauge
                gauge: jvm.heap.used
                above: 900000000
            """;

    @Test
    void readsEveryKeyAndResolvesSecretsFromFilesAndTheEnvironment() throws Exception {
        Files.writeString(dir.resolve("hook-url"), "http://127.0.0.1:9/hook\n");
        Files.writeString(dir.resolve("smtp-password"), "s3cret\n");
        RuleSet set = parser.parse(FULL, dir);
        assertThat(set.interval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(set.publicUrl()).isEqualTo("https://argus.example.com/");
        assertThat(set.rules()).hasSize(5);
        AlertRule errors = set.rules().get(0);
        assertThat(errors.signal()).isEqualTo(SignalKind.ERROR_RATE);
        assertThat(errors.kind()).isEqualTo("server");
        assertThat(errors.method()).isEqualTo("POST");
        assertThat(errors.route()).isEqualTo("/checkout");
        assertThat(errors.threshold()).isEqualTo(0.05);
        assertThat(errors.above()).isTrue();
        assertThat(errors.window()).isEqualTo(Duration.ofMinutes(1));
        assertThat(errors.pendingFor()).isEqualTo(Duration.ofSeconds(30));
        assertThat(errors.minCalls()).isEqualTo(10);
        assertThat(errors.channels()).containsExactly("ops-hook", "ops-mail");
        assertThat(errors.line()).isEqualTo(22);
        AlertRule slow = set.rules().get(1);
        assertThat(slow.kind()).isEqualTo("client");
        assertThat(slow.route()).isEqualTo("stock:8080");
        assertThat(slow.threshold()).isEqualTo(1500.0);
        assertThat(slow.window()).isEqualTo(Duration.ofMinutes(5));
        assertThat(set.rules().get(2).above()).isFalse();
        assertThat(set.rules().get(2).channels()).containsExactly("ops-slack");
        assertThat(set.rules().get(3).threshold()).isEqualTo(5.0);
        assertThat(set.rules().get(4).gauge()).isEqualTo("jvm.heap.used");
        assertThat(set.rules().get(4).instance()).isEqualTo("back-1");

        ChannelSpec hook = set.channels().get(0);
        assertThat(hook.url()).isEqualTo("http://127.0.0.1:9/hook");
        assertThat(hook.secretSource()).isEqualTo("file:" + dir.resolve("hook-url"));
        assertThat(hook.timeoutMs()).isEqualTo(2000);
        assertThat(hook.retries()).isEqualTo(3);
        assertThat(set.channels().get(1).url()).isEqualTo("https://hooks.example/T1/secret");
        assertThat(set.channels().get(1).secretSource()).isEqualTo("env:HOOK_URL");
        ChannelSpec mail = set.channels().get(2);
        assertThat(mail.smtp().password()).isEqualTo("s3cret");
        assertThat(mail.smtp().to()).containsExactly("oncall@example.com", "lead@example.com");
        // what may reach a log line holds no secret
        assertThat(set.channels().toString()).doesNotContain("s3cret", "T1/secret", "127.0.0.1:9/hook");
    }

    @Test
    void anEmptyFileHasNoRules() throws Exception {
        assertThat(parser.parse("", dir).rules()).isEmpty();
        assertThat(parser.parse("# nothing yet\n", dir).rules()).isEmpty();
    }

    private void assertError(String text, int line, String message) {
        assertThatThrownBy(() -> parser.parse(text, dir))
                .isInstanceOf(RuleFileException.class)
                .hasMessageStartingWith("line " + line + ": ")
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(((RuleFileException) e).line()).isEqualTo(line));
    }

    @Test
    void eachMistakeNamesItsLine() {
        assertError("rules:\n  - name: a\n    service: [x\n", 4, "not valid YAML");
        assertError("rules:\n  - name: a\n    service: x\n    signal: error_rat\n    above: 1%\n", 4,
                "unknown signal 'error_rat'");
        assertError("rules:\n  - name: a\n    service: x\n    signal: error_rate\n    above: 1%\n    fro: 1m\n", 6,
                "unknown key 'fro'");
        assertError("rules:\n  - name: a\n    service: x\n    signal: error_rate\n    above: lots\n", 5,
                "'above' must be a number");
        assertError("rules:\n  - name: a\n    service: x\n    signal: error_rate\n    above: 150%\n", 5,
                "between 0 and 1");
        assertError("rules:\n  - name: a\n    service: x\n    signal: p95_latency\n    above: 1s\n    window: 5\n",
                6, "'window' must be a length of time");
        assertError("rules:\n  - name: a\n    service: x\n    signal: p95_latency\n    above: 1s\n    window: 1s\n",
                6, "between 10s and 1d");
        assertError("rules:\n  - name: a\n    service: x\n    signal: p95_latency\n    above: 1s\n    below: 2s\n", 2,
                "exactly one of 'above' or 'below'");
        assertError("rules:\n  - name: a\n    signal: p95_latency\n    above: 1s\n", 2, "needs 'service'");
        assertError("rules:\n  - name: a\n    service: x\n    signal: agent_silent\n    above: 5m\n    route: /a\n",
                6, "'route' does not apply");
        assertError("rules:\n  - name: a\n    service: x\n    signal: error_rate\n    above: 1%\n"
                + "    channels: [nope]\n", 6, "names channel 'nope'");
        assertError("rules:\n  - name: a\n    service: x\n    signal: error_rate\n    above: 1%\n"
                + "  - name: a\n    service: y\n    signal: error_rate\n    above: 1%\n", 6, "a second rule named 'a'");
        assertError("channels:\n  - name: c\n    type: pager\n", 3, "channel type must be");
        assertError("channels:\n  - name: c\n    type: webhook\n    url_env: MISSING\n", 4,
                "environment variable MISSING is not set");
        assertError("channels:\n  - name: c\n    type: webhook\n    url_file: no-such-file\n", 4,
                "cannot read secret file");
        assertError("channels:\n  - name: c\n    type: webhook\n    url: ftp://x\n", 4, "must start with http");
        assertError("channels:\n  - name: c\n    type: email\n    smtp_host: h\n    from: a@b\n    to: nobody\n", 6,
                "'nobody' is not an e-mail address");
        assertError("rules: 3\n", 1, "'rules' must be a list");
        assertError("- a\n- b\n", 1, "the rules file must be a mapping");
    }
}
