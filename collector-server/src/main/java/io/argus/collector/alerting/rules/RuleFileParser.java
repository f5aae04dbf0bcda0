package io.argus.collector.alerting.rules;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Reads a rules file (YAML) into a {@link RuleSet}. Every mistake is a {@link RuleFileException} that names the
 * line; nothing half-read is returned. Secrets named by {@code *_file} or {@code *_env} keys are read here: a
 * relative file path is taken from the rules file's folder.
 */
public final class RuleFileParser {
    /** A rules file larger than this is refused (a mistake, not a rules file). */
    static final int MAX_BYTES = 1 << 20;
    static final Duration MIN_WINDOW = Duration.ofSeconds(10);
    static final Duration MAX_WINDOW = Duration.ofHours(24);
    static final Duration MIN_INTERVAL = Duration.ofSeconds(1);
    static final Duration MAX_INTERVAL = Duration.ofHours(1);
    static final long DEFAULT_TIMEOUT_MS = 10_000;
    static final int DEFAULT_RETRIES = 5;
    private static final List<String> KINDS = List.of("server", "client", "db");
    private static final Set<String> TOP = Set.of("evaluation_interval", "public_url", "channels", "rules");
    private static final Set<String> RULE = Set.of("name", "service", "kind", "method", "route", "target",
            "instance", "gauge", "signal", "above", "below", "window", "for", "min_calls", "severity", "channels");
    private static final Set<String> CHANNEL = Set.of("name", "type", "url", "url_file", "url_env", "timeout",
            "retries", "smtp_host", "smtp_port", "tls", "username", "password_file", "password_env", "from", "to");

    private final UnaryOperator<String> environment;

    /** @param environment looks up environment variables ({@code System::getenv} in production) */
    public RuleFileParser(UnaryOperator<String> environment) {
        this.environment = environment;
    }

    public RuleSet read(Path file) throws RuleFileException {
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new RuleFileException(0, file + " is larger than " + MAX_BYTES + " bytes");
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new RuleFileException(0, "cannot read " + file + ": " + e);
        }
        Path folder = file.toAbsolutePath().getParent();
        return parse(new String(bytes, StandardCharsets.UTF_8), folder);
    }

    /** Parses rules text; {@code folder} resolves relative secret files. */
    public RuleSet parse(String text, Path folder) throws RuleFileException {
        Node root;
        try {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(false);
            options.setMaxAliasesForCollections(10);
            root = new Yaml(options).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            int line = e.getProblemMark() == null ? 0 : e.getProblemMark().getLine() + 1;
            throw new RuleFileException(line, "not valid YAML: " + e.getProblem());
        } catch (YAMLException e) {
            throw new RuleFileException(0, "not valid YAML: " + e.getMessage());
        }
        if (root == null) {
            return RuleSet.empty();
        }
        YamlMap top = YamlMap.of(root, "the rules file", TOP);
        Duration interval = duration(top, "evaluation_interval", RuleSet.DEFAULT_INTERVAL, MIN_INTERVAL,
                MAX_INTERVAL);
        String publicUrl = top.string("public_url");
        if (publicUrl != null && !publicUrl.matches("https?://\\S+")) {
            throw new RuleFileException(top.line("public_url"), "'public_url' must be an http:// or https:// URL");
        }
        List<ChannelSpec> channels = new ArrayList<>();
        Set<String> channelNames = new HashSet<>();
        for (Node n : top.sequence("channels")) {
            ChannelSpec c = channel(YamlMap.of(n, "a channel", CHANNEL), folder);
            if (!channelNames.add(c.name())) {
                throw new RuleFileException(c.line(), "a second channel named '" + c.name() + "'");
            }
            channels.add(c);
        }
        List<AlertRule> rules = new ArrayList<>();
        Set<String> ruleNames = new HashSet<>();
        for (Node n : top.sequence("rules")) {
            AlertRule r = rule(YamlMap.of(n, "a rule", RULE), channelNames);
            if (!ruleNames.add(r.name())) {
                throw new RuleFileException(r.line(), "a second rule named '" + r.name() + "'");
            }
            rules.add(r);
        }
        return new RuleSet(interval, publicUrl, rules, channels);
    }

    private static AlertRule rule(YamlMap m, Set<String> channelNames) throws RuleFileException {
        String name = m.required("name");
        String service = m.required("service");
        String signalName = m.required("signal");
        SignalKind signal = SignalKind.of(signalName);
        if (signal == null) {
            throw new RuleFileException(m.line("signal"), "unknown signal '" + signalName + "'; known: "
                    + SignalKind.names());
        }
        if (m.has("above") == m.has("below")) {
            throw new RuleFileException(m.line(), "rule '" + name + "' needs exactly one of 'above' or 'below'");
        }
        boolean above = m.has("above");
        String bound = above ? "above" : "below";
        double threshold = threshold(m, bound, signal);
        if (!signal.fromCalls()) {
            for (String key : List.of("kind", "method", "route", "target", "min_calls")) {
                if (m.has(key)) {
                    throw new RuleFileException(m.line(key), "'" + key + "' does not apply to signal "
                            + signal.id());
                }
            }
        }
        if (m.has("instance") && signal != SignalKind.AGENT_SILENT && signal != SignalKind.DROPPED_SPANS
                && signal != SignalKind.JVM_GAUGE) {
            throw new RuleFileException(m.line("instance"), "'instance' applies to agent_silent, dropped_spans"
                    + " and jvm_gauge only");
        }
        if (m.has("route") && m.has("target")) {
            throw new RuleFileException(m.line("target"), "give 'route' (server calls) or 'target' (client and"
                    + " database calls), not both");
        }
        String gauge = m.string("gauge");
        if ((signal == SignalKind.JVM_GAUGE) != (gauge != null)) {
            throw new RuleFileException(m.line(gauge == null ? "signal" : "gauge"),
                    "'gauge' (e.g. jvm.heap.used) goes with signal jvm_gauge, and only with it");
        }
        String kind = m.string("kind");
        if (kind == null && signal.fromCalls()) {
            kind = m.has("target") ? "client" : "server";
        } else if (kind != null && !KINDS.contains(kind.toLowerCase(Locale.ROOT))) {
            throw new RuleFileException(m.line("kind"), "'kind' must be one of " + String.join(", ", KINDS)
                    + ", got '" + kind + "'");
        }
        String method = m.string("method");
        Duration window = duration(m, "window", Duration.ofMinutes(5), MIN_WINDOW, MAX_WINDOW);
        Duration pendingFor = duration(m, "for", Duration.ZERO, Duration.ZERO, MAX_WINDOW);
        long minCalls = m.integer("min_calls", 1, 1, Integer.MAX_VALUE);
        List<String> channels = m.strings("channels");
        for (String c : channels) {
            if (!channelNames.contains(c)) {
                throw new RuleFileException(m.line("channels"), "rule '" + name + "' names channel '" + c
                        + "', which the file does not define");
            }
        }
        String severity = m.string("severity");
        return new AlertRule(name, service, kind == null ? null : kind.toLowerCase(Locale.ROOT),
                method == null ? null : method.toUpperCase(Locale.ROOT),
                m.has("route") ? m.string("route") : m.string("target"), m.string("instance"), gauge, signal, above,
                threshold, window, pendingFor, minCalls, severity == null ? "warning" : severity, channels,
                m.line());
    }

    /** The bound in the signal's unit: a fraction or percentage, milliseconds or a duration, minutes, a number. */
    private static double threshold(YamlMap m, String key, SignalKind signal) throws RuleFileException {
        String v = m.required(key);
        int line = m.line(key);
        double value;
        switch (signal) {
            case ERROR_RATE -> {
                value = v.endsWith("%") ? number(v.substring(0, v.length() - 1).strip(), key, line) / 100
                        : number(v, key, line);
                if (value < 0 || value > 1) {
                    throw new RuleFileException(line, "an error rate bound is between 0 and 1 (or 0% and 100%),"
                            + " got '" + v + "'");
                }
            }
            case P95_LATENCY, P99_LATENCY -> {
                Double ms = Durations.decimalMillis(v);
                value = ms != null ? ms : number(v, key, line);
            }
            case AGENT_SILENT -> {
                Double ms = Durations.decimalMillis(v);
                value = ms != null ? ms / 60_000.0 : number(v, key, line);
            }
            default -> value = number(v, key, line);
        }
        if (value < 0) {
            throw new RuleFileException(line, "'" + key + "' must not be negative, got '" + v + "'");
        }
        return value;
    }

    private static double number(String v, String key, int line) throws RuleFileException {
        try {
            double d = Double.parseDouble(v);
            if (Double.isFinite(d)) {
                return d;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new RuleFileException(line, "'" + key + "' must be a number, got '" + v + "'");
    }

    private static Duration duration(YamlMap m, String key, Duration absent, Duration min, Duration max)
            throws RuleFileException {
        String v = m.string(key);
        if (v == null) {
            return absent;
        }
        Duration d = Durations.parse(v);
        if (d == null) {
            throw new RuleFileException(m.line(key), "'" + key + "' must be a length of time such as 30s, 5m or"
                    + " 1h, got '" + v + "'");
        }
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw new RuleFileException(m.line(key), "'" + key + "' must be between " + Durations.format(min)
                    + " and " + Durations.format(max) + ", got " + v);
        }
        return d;
    }

    private ChannelSpec channel(YamlMap m, Path folder) throws RuleFileException {
        String name = m.required("name");
        String type = m.required("type").toLowerCase(Locale.ROOT);
        long timeoutMs = duration(m, "timeout", Duration.ofMillis(DEFAULT_TIMEOUT_MS), Duration.ofMillis(100),
                Duration.ofMinutes(2)).toMillis();
        int retries = (int) m.integer("retries", DEFAULT_RETRIES, 0, 20);
        switch (type) {
            case ChannelSpec.WEBHOOK, ChannelSpec.SLACK -> {
                for (String key : List.of("smtp_host", "smtp_port", "tls", "username", "password_file",
                        "password_env", "from", "to")) {
                    if (m.has(key)) {
                        throw new RuleFileException(m.line(key), "'" + key + "' is for email channels");
                    }
                }
                Secret url = secret(m, "url", folder, true);
                if (!url.value().matches("https?://\\S+")) {
                    throw new RuleFileException(url.line(), "channel '" + name + "': the URL (from "
                            + url.source() + ") must start with http:// or https://");
                }
                return new ChannelSpec(name, type, url.value(), url.source(), null, timeoutMs, retries, m.line());
            }
            case ChannelSpec.EMAIL -> {
                for (String key : List.of("url", "url_file", "url_env")) {
                    if (m.has(key)) {
                        throw new RuleFileException(m.line(key), "'" + key + "' is for webhook and slack channels");
                    }
                }
                String tls = m.string("tls") == null ? "starttls" : m.string("tls").toLowerCase(Locale.ROOT);
                if (!List.of("none", "starttls", "ssl").contains(tls)) {
                    throw new RuleFileException(m.line("tls"), "'tls' must be none, starttls or ssl, got '" + tls
                            + "'");
                }
                int port = (int) m.integer("smtp_port", tls.equals("ssl") ? 465 : 587, 1, 65535);
                String username = m.string("username");
                Secret password = secret(m, "password", folder, false);
                if ((username == null) != (password == null)) {
                    throw new RuleFileException(m.line(), "channel '" + name + "': 'username' and a password"
                            + " ('password_file' or 'password_env') go together");
                }
                List<String> to = m.strings("to");
                if (to.isEmpty()) {
                    throw new RuleFileException(m.line(), "channel '" + name + "' needs 'to' (one address or a list)");
                }
                String from = m.required("from");
                for (String address : concat(from, to)) {
                    if (!address.matches("[^@\\s]+@[^@\\s]+")) {
                        throw new RuleFileException(m.line(address.equals(from) ? "from" : "to"),
                                "'" + address + "' is not an e-mail address");
                    }
                }
                ChannelSpec.Smtp smtp = new ChannelSpec.Smtp(m.required("smtp_host"), port, tls, username,
                        password == null ? null : password.value(), from, to);
                return new ChannelSpec(name, type, null, password == null ? "none" : password.source(), smtp,
                        timeoutMs, retries, m.line());
            }
            default -> throw new RuleFileException(m.line("type"), "channel type must be webhook, slack or email,"
                    + " got '" + type + "'");
        }
    }

    private static List<String> concat(String first, List<String> rest) {
        List<String> all = new ArrayList<>(rest);
        all.add(0, first);
        return all;
    }

    private record Secret(String value, String source, int line) {
    }

    /**
     * {@code <key>_file} or {@code <key>_env} ({@code url} may also be given inline; a password never is).
     * {@code null} when none is given and the secret is optional.
     */
    private Secret secret(YamlMap m, String key, Path folder, boolean required) throws RuleFileException {
        String fileKey = key + "_file";
        String envKey = key + "_env";
        int given = (m.has(key) ? 1 : 0) + (m.has(fileKey) ? 1 : 0) + (m.has(envKey) ? 1 : 0);
        if (given > 1) {
            throw new RuleFileException(m.line(), "give one of '" + key + "', '" + fileKey + "' or '" + envKey + "'");
        }
        if (m.has(fileKey)) {
            Path file = folder == null ? Path.of(m.required(fileKey)) : folder.resolve(m.required(fileKey));
            try {
                String v = Files.readString(file, StandardCharsets.UTF_8).strip();
                if (v.isEmpty()) {
                    throw new RuleFileException(m.line(fileKey), "secret file " + file + " is empty");
                }
                return new Secret(v, "file:" + file, m.line(fileKey));
            } catch (IOException e) {
                throw new RuleFileException(m.line(fileKey), "cannot read secret file " + file + ": " + e);
            }
        }
        if (m.has(envKey)) {
            String variable = m.required(envKey);
            String v = environment.apply(variable);
            if (v == null || v.isBlank()) {
                throw new RuleFileException(m.line(envKey), "environment variable " + variable + " is not set");
            }
            return new Secret(v.strip(), "env:" + variable, m.line(envKey));
        }
        if (m.has(key)) {
            return new Secret(m.required(key), "inline", m.line(key));
        }
        if (required) {
            throw new RuleFileException(m.line(), "the channel needs '" + fileKey + "', '" + envKey + "' or '" + key
                    + "'");
        }
        return null;
    }
}
