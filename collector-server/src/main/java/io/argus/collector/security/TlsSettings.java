package io.argus.collector.security;

import java.nio.file.Path;

/**
 * Where the collector's TLS key and certificate come from: a PEM certificate chain plus an unencrypted PKCS#8 PEM
 * private key, or a PKCS#12 keystore with its password. The same key serves every listener.
 */
public record TlsSettings(Path certificate, Path privateKey, Path keystore, String keystorePassword) {
    public TlsSettings {
        boolean pem = certificate != null || privateKey != null;
        if (pem && keystore != null) {
            throw new IllegalArgumentException("TLS takes either a certificate and key or a keystore, not both");
        }
        if (pem && (certificate == null || privateKey == null)) {
            throw new IllegalArgumentException("TLS with PEM files needs both the certificate and the private key");
        }
        if (!pem && keystore == null) {
            throw new IllegalArgumentException("TLS needs a certificate and key or a keystore");
        }
        if (keystore == null && keystorePassword != null) {
            throw new IllegalArgumentException("a keystore password without a keystore");
        }
    }

    /** A PEM certificate chain (server certificate first) and its unencrypted PKCS#8 private key. */
    public static TlsSettings pem(Path certificate, Path privateKey) {
        return new TlsSettings(certificate, privateKey, null, null);
    }

    /** A PKCS#12 keystore holding one private key entry with its certificate chain. */
    public static TlsSettings pkcs12(Path keystore, String password) {
        return new TlsSettings(null, null, keystore, password == null ? "" : password);
    }

    /** Hides the password. */
    @Override
    public String toString() {
        return keystore != null ? "TlsSettings[keystore=" + keystore + "]"
                : "TlsSettings[certificate=" + certificate + ", privateKey=" + privateKey + "]";
    }
}
