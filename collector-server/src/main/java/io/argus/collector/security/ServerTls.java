package io.argus.collector.security;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.ChannelHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLException;

/**
 * The server side of TLS for every listener: one {@link SslContext} (JDK provider) built from {@link TlsSettings},
 * and the two stages it puts first in a connection's pipeline: Netty's {@code SslHandler} and a
 * {@link TlsHandshakeHandler} that logs, counts and closes connections whose handshake fails.
 */
public final class ServerTls {
    private final SslContext context;
    private final MeterRegistry meters;
    private final TlsSettings settings;

    private ServerTls(SslContext context, MeterRegistry meters, TlsSettings settings) {
        this.context = context;
        this.meters = meters;
        this.settings = settings;
    }

    /**
     * @throws IllegalStateException when the key material cannot be read, with the file and the reason
     */
    public static ServerTls create(TlsSettings settings, MeterRegistry meters) {
        return create(settings, meters, null);
    }

    /**
     * The same key and certificate for an HTTP/2 listener (OTLP/gRPC): ALPN offers {@code h2}, which gRPC clients
     * insist on.
     */
    public ServerTls http2() {
        return create(settings, meters, new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, ApplicationProtocolNames.HTTP_2));
    }

    private static ServerTls create(TlsSettings settings, MeterRegistry meters, ApplicationProtocolConfig alpn) {
        try {
            SslContextBuilder b = settings.keystore() != null
                    ? SslContextBuilder.forServer(keyManagers(settings))
                    : SslContextBuilder.forServer(settings.certificate().toFile(), settings.privateKey().toFile());
            if (alpn != null) {
                b.applicationProtocolConfig(alpn);
            }
            return new ServerTls(b.sslProvider(SslProvider.JDK).build(), meters, settings);
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot load the TLS certificate and key " + settings + ": "
                    + (e.getCause() != null ? e.getCause() : e.getMessage()), e);
        }
    }

    private static KeyManagerFactory keyManagers(TlsSettings settings) {
        char[] password = settings.keystorePassword().toCharArray();
        try (InputStream in = Files.newInputStream(settings.keystore())) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, password);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, password);
            return kmf;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the TLS keystore " + settings.keystore() + ": " + e, e);
        }
    }

    /** The stage that reports failed handshakes of {@code listener}; one instance serves all its connections. */
    public ChannelHandler handshakeHandler(String listener) {
        return new TlsHandshakeHandler(listener, meters);
    }

    /** Puts TLS first in the pipeline of a new connection; {@code handshake} from {@link #handshakeHandler}. */
    public void install(SocketChannel ch, ChannelHandler handshake) {
        ch.pipeline().addLast("tls", context.newHandler(ch.alloc())).addLast("tls-handshake", handshake);
    }
}
