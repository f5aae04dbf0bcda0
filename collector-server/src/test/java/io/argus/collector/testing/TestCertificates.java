package io.argus.collector.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Certificates made at test time with the JDK's {@code keytool}: a test CA, a server certificate for
 * {@code localhost} / {@code 127.0.0.1} signed by it (in a PKCS#12 keystore with its chain, and as PEM
 * certificate + PKCS#8 key), and one whose validity ended two days ago. Made once per test JVM.
 */
public final class TestCertificates {
    public static final String PASSWORD = "test-pass";
    private static TestCertificates instance;

    private final Path dir;

    private TestCertificates(Path dir) {
        this.dir = dir;
    }

    public static synchronized TestCertificates get() {
        if (instance == null) {
            try {
                Path dir = Files.createTempDirectory("argus-tls-");
                TestCertificates certs = new TestCertificates(dir);
                certs.generate();
                instance = certs;
            } catch (IOException | GeneralSecurityException e) {
                throw new IllegalStateException("cannot make the test certificates", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return instance;
    }

    /** PKCS#12 keystore (password {@link #PASSWORD}) with the server key and chain, valid for 30 days. */
    public Path keystore() {
        return dir.resolve("server.p12");
    }

    /** Like {@link #keystore()} but the certificate expired two days ago. */
    public Path expiredKeystore() {
        return dir.resolve("expired.p12");
    }

    /** PEM chain of {@link #keystore()}'s certificate, server certificate first. */
    public Path certificatePem() {
        return dir.resolve("server.crt.pem");
    }

    /** Unencrypted PKCS#8 PEM private key of {@link #keystore()}. */
    public Path privateKeyPem() {
        return dir.resolve("server.key.pem");
    }

    /** The test CA's certificate (PEM), the one to trust. */
    public Path caCertificatePem() {
        return dir.resolve("ca.crt");
    }

    /** A client context that trusts the test CA (and nothing else). */
    public SSLContext clientContext() {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            try (InputStream in = Files.newInputStream(dir.resolve("ca.crt"))) {
                trust.setCertificateEntry("ca", java.security.cert.CertificateFactory.getInstance("X.509")
                        .generateCertificate(in));
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return ctx;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private void generate() throws IOException, InterruptedException, GeneralSecurityException {
        keytool("-genkeypair", "-alias", "ca", "-dname", "CN=Argus Test CA", "-ext", "bc:c", "-keyalg", "EC",
                "-groupname", "secp256r1", "-validity", "60", "-keystore", "ca.p12");
        keytool("-exportcert", "-alias", "ca", "-rfc", "-file", "ca.crt", "-keystore", "ca.p12");
        signedServer("server", "-1d", "30");
        signedServer("expired", "-3d", "1");
        writePem();
    }

    /** A server key pair in {@code <name>.p12} whose certificate the CA signed with the given validity. */
    private void signedServer(String name, String startDate, String days) throws IOException, InterruptedException {
        String keystore = name + ".p12";
        keytool("-genkeypair", "-alias", "server", "-dname", "CN=localhost", "-keyalg", "EC", "-groupname",
                "secp256r1", "-keystore", keystore);
        keytool("-certreq", "-alias", "server", "-file", name + ".csr", "-keystore", keystore);
        keytool("-gencert", "-alias", "ca", "-infile", name + ".csr", "-outfile", name + ".crt", "-rfc",
                "-ext", "san=dns:localhost,ip:127.0.0.1", "-ext", "eku=serverAuth", "-startdate", startDate,
                "-validity", days, "-keystore", "ca.p12");
        keytool("-importcert", "-alias", "ca", "-file", "ca.crt", "-noprompt", "-keystore", keystore);
        keytool("-importcert", "-alias", "server", "-file", name + ".crt", "-noprompt", "-keystore", keystore);
    }

    private void writePem() throws IOException, GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore())) {
            ks.load(in, PASSWORD.toCharArray());
        }
        List<String> chain = new ArrayList<>();
        for (Certificate c : ks.getCertificateChain("server")) {
            chain.add(pem("CERTIFICATE", c.getEncoded()));
        }
        Files.writeString(certificatePem(), String.join("", chain));
        Files.writeString(privateKeyPem(),
                pem("PRIVATE KEY", ks.getKey("server", PASSWORD.toCharArray()).getEncoded()));
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private void keytool(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD, "-J-Xshare:auto",
                "-J-XX:TieredStopAtLevel=1"));
        Path log = dir.resolve("keytool.log");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("keytool " + String.join(" ", args) + " failed: " + Files.readString(log));
        }
    }
}
