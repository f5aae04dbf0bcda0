package io.argus.core.config;

/**
 * {@code argus.collector.tls*}: whether the agent speaks TLS to the collector's ingest port, and what it trusts.
 * Read here; the trust store itself is opened by the exporter when it starts (see docs/configuration.md).
 */
public final class CollectorTlsSettings {

    public static final String ENABLED = "argus.collector.tls";
    public static final String TRUST_STORE = "argus.collector.tls.trustStore";
    public static final String TRUST_STORE_PASSWORD = "argus.collector.tls.trustStorePassword";
    public static final String VERIFY_HOSTNAME = "argus.collector.tls.verifyHostname";

    public final boolean enabled;
    /** A PKCS#12 file or a PEM file of CA certificates; empty for the JVM's default trust store. */
    public final String trustStore;
    /** The PKCS#12 password; empty for none. */
    public final String trustStorePassword;
    /** Whether the collector's certificate must name the host the agent connects to. */
    public final boolean verifyHostname;

    public CollectorTlsSettings(boolean enabled, String trustStore, String trustStorePassword, boolean verifyHostname) {
        this.enabled = enabled;
        this.trustStore = trustStore;
        this.trustStorePassword = trustStorePassword;
        this.verifyHostname = verifyHostname;
    }

    static CollectorTlsSettings read(AgentConfig config) {
        return new CollectorTlsSettings(config.getBoolean(ENABLED, false), config.getString(TRUST_STORE, ""),
                config.getString(TRUST_STORE_PASSWORD, ""), config.getBoolean(VERIFY_HOSTNAME, true));
    }
}
