package io.argus.core.export;

import io.argus.core.config.CollectorTlsSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import javax.crypto.spec.SecretKeySpec;
import javax.net.ssl.SSLContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Trust material the agent cannot use is refused with a message naming the file and the key to fix. */
class TlsClientContextTest {

    @TempDir
    Path dir;

    private static CollectorTlsSettings trusting(Path store, String password) {
        return new CollectorTlsSettings(true, store.toString(), password, true);
    }

    @Test
    void noTrustStoreMeansTheJvmDefaults() throws Exception {
        SSLContext context = TlsClientContext.create(new CollectorTlsSettings(true, "", "", true));
        assertThat(context.createSSLEngine("localhost", 1).getUseClientMode()).isNotNull();
    }

    @Test
    void missingFile() {
        Path missing = dir.resolve("absent.p12");
        assertThatThrownBy(() -> TlsClientContext.create(trusting(missing, "x")))
                .isInstanceOf(TlsClientContext.TlsSetupException.class)
                .hasMessage("argus.collector.tls.trustStore: no such file " + missing.toAbsolutePath());
    }

    @Test
    void wrongPassword() throws Exception {
        Path store = pkcs12WithoutCertificates("right");
        assertThatThrownBy(() -> TlsClientContext.create(trusting(store, "wrong")))
                .isInstanceOf(TlsClientContext.TlsSetupException.class)
                .hasMessage("argus.collector.tls.trustStore: wrong password for " + store
                        + " (argus.collector.tls.trustStorePassword)");
    }

    @Test
    void aStoreWithoutCertificates() throws Exception {
        Path store = pkcs12WithoutCertificates("right");
        assertThatThrownBy(() -> TlsClientContext.create(trusting(store, "right")))
                .hasMessage("argus.collector.tls.trustStore: " + store + " holds no certificate to trust");
    }

    @Test
    void neitherPkcs12NorPem() throws Exception {
        Path text = dir.resolve("notes.txt");
        Files.write(text, "not a trust store".getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> TlsClientContext.create(trusting(text, "")))
                .hasMessageStartingWith("argus.collector.tls.trustStore: " + text
                        + " is neither a PKCS#12 trust store nor PEM certificates");
    }

    @Test
    void aBrokenPemCertificate() throws Exception {
        Path pem = dir.resolve("ca.pem");
        Files.write(pem, "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"
                .getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> TlsClientContext.create(trusting(pem, "")))
                .hasMessageStartingWith("argus.collector.tls.trustStore: cannot read the PEM certificates in " + pem);
    }

    /** A password-protected PKCS#12 file holding only a secret key: the JDK alone can make one. */
    private Path pkcs12WithoutCertificates(String password) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setEntry("key", new KeyStore.SecretKeyEntry(new SecretKeySpec(new byte[16], "AES")),
                new KeyStore.PasswordProtection(password.toCharArray()));
        File file = dir.resolve("keys.p12").toFile();
        try (OutputStream out = new FileOutputStream(file)) {
            store.store(out, password.toCharArray());
        }
        return file.toPath();
    }
}
