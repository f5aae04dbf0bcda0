package io.argus.collector.storage;

import java.util.List;

/**
 * The labels of the call-metric kinds, by their wire number ({@code CallMetricKind}), as storage, the API and the
 * scale-out records write them: 1 server, 2 client, 3 db, 4 produce (messages a producer had acknowledged), 5 consume
 * (messages processed), 6 rpc_server, 7 rpc_client (gRPC calls served and made), 8 job (scheduled job runs).
 */
public final class CallKinds {
    /** Index = wire number. */
    private static final String[] LABELS = {"unspecified", "server", "client", "db", "produce", "consume",
        "rpc_server", "rpc_client", "job"};
    /** What {@code kind=} of the API accepts, and what storage keeps. */
    public static final List<String> KNOWN = List.of(LABELS).subList(1, LABELS.length);

    private CallKinds() {
    }

    /** The label of a wire number; {@code unspecified} for one this collector does not know. */
    public static String label(int wireNumber) {
        return wireNumber >= 0 && wireNumber < LABELS.length ? LABELS[wireNumber] : LABELS[0];
    }

    /** Whether an agent may send cells of this kind (its wire number: a kind newer than this collector is not an enum constant). */
    public static boolean known(int wireNumber) {
        return wireNumber > 0 && wireNumber < LABELS.length;
    }

    /** {@code 'server', 'client', ...}: the values of the storage enum. */
    public static String sqlList() {
        StringBuilder b = new StringBuilder();
        for (String k : KNOWN) {
            b.append(b.length() == 0 ? "" : ", ").append('\'').append(k).append('\'');
        }
        return b.toString();
    }
}
