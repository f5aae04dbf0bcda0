package io.argus.collector.alerting.notify;

import io.argus.collector.alerting.rules.ChannelSpec;
import io.argus.collector.alerting.state.AlertEvent;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.util.Date;
import java.util.Properties;
import java.util.function.Supplier;

/** Sends each notification as a plain-text e-mail over SMTP (Jakarta Mail, Eclipse Angus's implementation). */
final class EmailChannel implements NotificationChannel {
    private final ChannelSpec.Smtp smtp;
    private final Session session;
    private final Supplier<String> baseUrl;

    EmailChannel(ChannelSpec.Smtp smtp, long timeoutMs, Supplier<String> baseUrl) {
        this.smtp = smtp;
        this.baseUrl = baseUrl;
        String protocol = smtp.tls().equals("ssl") ? "smtps" : "smtp";
        String prefix = "mail." + protocol + ".";
        Properties p = new Properties();
        p.setProperty("mail.transport.protocol", protocol);
        p.setProperty(prefix + "host", smtp.host());
        p.setProperty(prefix + "port", String.valueOf(smtp.port()));
        p.setProperty(prefix + "connectiontimeout", String.valueOf(timeoutMs));
        p.setProperty(prefix + "timeout", String.valueOf(timeoutMs));
        p.setProperty(prefix + "writetimeout", String.valueOf(timeoutMs));
        p.setProperty(prefix + "auth", String.valueOf(smtp.username() != null));
        if (smtp.tls().equals("starttls")) {
            p.setProperty(prefix + "starttls.enable", "true");
            p.setProperty(prefix + "starttls.required", "true");
        }
        if (!smtp.tls().equals("none")) {
            p.setProperty(prefix + "ssl.checkserveridentity", "true");
        }
        this.session = Session.getInstance(p);
    }

    @Override
    public void send(AlertEvent event) throws MessagingException {
        AlertMessage m = new AlertMessage(event, baseUrl.get());
        MimeMessage mail = new MimeMessage(session);
        mail.setFrom(new InternetAddress(smtp.from()));
        for (String to : smtp.to()) {
            mail.addRecipient(Message.RecipientType.TO, new InternetAddress(to));
        }
        mail.setSubject(m.emailSubject(), "UTF-8");
        mail.setText(m.emailText(), "UTF-8");
        mail.setSentDate(new Date(event.atMs()));
        // lets mail clients thread the firing and its resolution together
        mail.setHeader("X-Argus-Dedup-Key", event.dedupKey());
        try (Transport transport = session.getTransport()) {
            if (smtp.username() != null) {
                transport.connect(smtp.host(), smtp.port(), smtp.username(), smtp.password());
            } else {
                transport.connect();
            }
            transport.sendMessage(mail, mail.getAllRecipients());
        }
    }
}
