package io.argus.collector.storage.druid;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Where a query node finds Druid: the router or broker URL ({@code --druid-url}), the prefix of the four
 * datasource names ({@code --druid-datasource-prefix}) and how long one SQL query may take.
 */
public record DruidSettings(URI url, String datasourcePrefix, Duration queryTimeout) {
    public static final String DEFAULT_DATASOURCE_PREFIX = "argus-";
    public static final Duration DEFAULT_QUERY_TIMEOUT = Duration.ofSeconds(30);

    public DruidSettings {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(datasourcePrefix, "datasourcePrefix");
        Objects.requireNonNull(queryTimeout, "queryTimeout");
        String scheme = url.getScheme();
        if (!"http".equals(scheme) && !"https".equals(scheme) || url.getHost() == null) {
            throw new IllegalArgumentException("the Druid URL must be http://host:port or https://host:port, got '"
                    + url + "'");
        }
        if (datasourcePrefix.isEmpty() || !datasourcePrefix.matches("[A-Za-z0-9_.-]+")) {
            throw new IllegalArgumentException("the datasource prefix must be letters, digits, '_', '.' or '-', got '"
                    + datasourcePrefix + "'");
        }
    }

    public static DruidSettings of(String url) {
        return new DruidSettings(URI.create(url), DEFAULT_DATASOURCE_PREFIX, DEFAULT_QUERY_TIMEOUT);
    }

    public DruidDatasources datasources() {
        return new DruidDatasources(datasourcePrefix);
    }
}
