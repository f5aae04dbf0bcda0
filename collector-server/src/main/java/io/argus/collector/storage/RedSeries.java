package io.argus.collector.storage;

import java.util.List;

/** The answer to a {@link RedQuery}: one point per step of the range, oldest first, gaps included as zeros. */
public record RedSeries(String service, String kind, String method, String route, long stepMs,
                        List<RedPoint> points) {
}
