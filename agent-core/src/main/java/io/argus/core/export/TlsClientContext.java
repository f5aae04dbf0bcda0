package io.argus.core.export;

import io.argus.core.config.CollectorTlsSettings;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import java.util.Enumeration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The agent's TLS client context: it trusts the certificates of {@code argus.collector.tls.trustStore} (a PKCS#12
 * file, or PEM CA certificates), or the JVM's default trust store when none is given. Unreadable trust material
 * is a {@link TlsSetupException} whose message says what is wrong and which key to fix.
 */
final class TlsClientContext {

    private static final int MAX_TRUST_STORE_BYTES = 4 << 20;

    private TlsClientContext() {
    }

    static SSLContext create(CollectorTlsSettings settings) throws TlsSetupException {
        KeyStore trusted = settings.trustStore.isEmpty() ? null : load(settings);
        try {
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new TlsSetupException("cannot set up TLS to the collector: " + e, e);
        }
    }

    private static KeyStore load(CollectorTlsSettings settings) throws TlsSetupException {
        String key = CollectorTlsSettings.TRUST_STORE;
        File file = new File(settings.trustStore);
        if (!file.isFile() || !file.canRead()) {
            throw new TlsSetupException(key + ": " + (file.exists() ? "cannot read " : "no such file ")
                    + file.getAbsolutePath(), null);
        }
        byte[] content = read(file, key);
        KeyStore store = isPem(content) ? fromPem(content, file) : fromPkcs12(content, file, settings);
        try {
            if (!holdsCertificate(store)) {
                throw new TlsSetupException(key + ": " + file + " holds no certificate to trust", null);
            }
        } catch (GeneralSecurityException e) {
            throw new TlsSetupException(key + ": cannot read " + file + ": " + e, e);
        }
        return store;
    }

    private static byte[] read(File file, String key) throws TlsSetupException {
        if (file.length() > MAX_TRUST_STORE_BYTES) {
            throw new TlsSetupException(key + ": " + file + " is larger than " + MAX_TRUST_STORE_BYTES
                    + " bytes: not a trust store", null);
        }
        byte[] content = new byte[(int) file.length()];
        try (InputStream in = new FileInputStream(file)) {
            int n = 0;
            int read;
            while (n < content.length && (read = in.read(content, n, content.length - n)) > 0) {
                n += read;
            }
            return content;
        } catch (IOException e) {
            throw new TlsSetupException(key + ": cannot read " + file + ": " + e, e);
        }
    }

    private static boolean isPem(byte[] content) {
        return new String(content, 0, Math.min(content.length, 4096), Charset.forName("US-ASCII"))
                .contains("-----BEGIN CERTIFICATE-----");
    }

    private static KeyStore fromPem(byte[] content, File file) throws TlsSetupException {
        try {
            Collection<? extends Certificate> certificates = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(content));
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (Certificate certificate : certificates) {
                store.setCertificateEntry("ca-" + i++, certificate);
            }
            return store;
        } catch (GeneralSecurityException | IOException e) {
            throw new TlsSetupException(CollectorTlsSettings.TRUST_STORE + ": cannot read the PEM certificates in "
                    + file + ": " + e, e);
        }
    }

    private static KeyStore fromPkcs12(byte[] content, File file, CollectorTlsSettings settings)
            throws TlsSetupException {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(new ByteArrayInputStream(content),
                    settings.trustStorePassword.isEmpty() ? null : settings.trustStorePassword.toCharArray());
            return store;
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException) {
                throw new TlsSetupException(CollectorTlsSettings.TRUST_STORE + ": wrong password for " + file
                        + " (" + CollectorTlsSettings.TRUST_STORE_PASSWORD + ")", e);
            }
            throw new TlsSetupException(CollectorTlsSettings.TRUST_STORE + ": " + file
                    + " is neither a PKCS#12 trust store nor PEM certificates: " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new TlsSetupException(CollectorTlsSettings.TRUST_STORE + ": cannot read " + file + ": " + e, e);
        }
    }

    private static boolean holdsCertificate(KeyStore store) throws GeneralSecurityException {
        for (Enumeration<String> aliases = store.aliases(); aliases.hasMoreElements(); ) {
            if (store.getCertificate(aliases.nextElement()) != null) {
                return true;
            }
        }
        return false;
    }

    /** Trust material that cannot be used; the message is meant for the operator. */
    static final class TlsSetupException extends Exception {
        TlsSetupException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
