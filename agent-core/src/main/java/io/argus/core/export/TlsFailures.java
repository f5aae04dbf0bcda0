package io.argus.core.export;

import io.argus.core.config.CollectorTlsSettings;

import java.io.EOFException;
import java.io.IOException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import javax.net.ssl.SSLException;

/** What a failed TLS handshake with the collector means, in the words of the agent's settings. */
final class TlsFailures {

    private TlsFailures() {
    }

    static String describe(IOException failure) {
        if (failure instanceof EOFException) {
            return failure.getMessage() + ": is its ingest port serving TLS?";
        }
        if (!(failure instanceof SSLException)) {
            return failure.toString();
        }
        Throwable cause;
        if ((cause = find(failure, CertificateExpiredException.class)) != null) {
            return "TLS handshake failed: the collector's certificate has expired (" + cause.getMessage() + ")";
        }
        if ((cause = find(failure, CertificateNotYetValidException.class)) != null) {
            return "TLS handshake failed: the collector's certificate is not valid yet (" + cause.getMessage() + ")";
        }
        if ((cause = find(failure, CertPathBuilderException.class)) != null) {
            return "TLS handshake failed: the collector's certificate is not signed by a certificate in "
                    + CollectorTlsSettings.TRUST_STORE + " (" + cause.getMessage() + ")";
        }
        if ((cause = find(failure, CertPathValidatorException.class)) != null) {
            return "TLS handshake failed: the collector's certificate chain is not valid (" + cause.getMessage() + ")";
        }
        cause = find(failure, CertificateException.class);
        if (cause != null && String.valueOf(cause.getMessage()).startsWith("No ")) {
            // "No subject alternative DNS name matching ... found", "No name matching ... found"
            return "TLS handshake failed: the collector's certificate does not name the host connected to ("
                    + cause.getMessage() + "; see " + CollectorTlsSettings.VERIFY_HOSTNAME + ")";
        }
        return "TLS handshake failed: " + failure.getMessage();
    }

    private static Throwable find(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable cause = failure; cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return cause;
            }
        }
        return null;
    }
}
