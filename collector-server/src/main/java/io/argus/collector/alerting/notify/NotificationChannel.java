package io.argus.collector.alerting.notify;

import io.argus.collector.alerting.state.AlertEvent;

/** Where notifications of one channel of the rules file go. Called from that channel's own thread only. */
interface NotificationChannel {

    /** Delivers one notification; throws when it did not arrive (it will be retried). */
    void send(AlertEvent event) throws Exception;
}
