package io.argus.collector.alerting.rules;

import java.util.List;

/**
 * A notification channel of the rules file. Secrets are resolved when the file is read, from a file
 * ({@code url_file}, {@code password_file}) or an environment variable ({@code url_env}, {@code password_env});
 * {@link #secretSource()} says which, and is all the API ever shows of them.
 *
 * @param name         what rules refer to
 * @param type         {@code webhook}, {@code slack} or {@code email}
 * @param url          webhook and Slack: where to POST
 * @param secretSource where the URL or password came from: {@code file:<path>}, {@code env:<NAME>} or {@code inline}
 * @param smtp         email: the server and the message's addresses
 * @param timeoutMs    how long one attempt may take (connect and answer)
 * @param retries      attempts after the first one failed, with doubling back-off
 * @param line         the channel's line in the file
 */
public record ChannelSpec(String name, String type, String url, String secretSource, Smtp smtp, long timeoutMs,
                          int retries, int line) {
    public static final String WEBHOOK = "webhook";
    public static final String SLACK = "slack";
    public static final String EMAIL = "email";

    /**
     * SMTP settings.
     *
     * @param tls {@code none}, {@code starttls} (required) or {@code ssl} (TLS from the first byte)
     */
    public record Smtp(String host, int port, String tls, String username, String password, String from,
                       List<String> to) {
        public Smtp {
            to = List.copyOf(to);
        }

        @Override
        public String toString() {
            return "Smtp[" + host + ":" + port + ", tls " + tls + ", from " + from + ", to " + to + "]";
        }
    }

    @Override
    public String toString() {
        // never the URL or password: this may end up in a log line
        return "ChannelSpec[" + name + ", " + type + ", secret from " + secretSource + "]";
    }
}
