package io.argus.collector.storage;

import java.util.List;

/** A service that has connected at least once, its instances, and when any of them was last heard from. */
public record ServiceSummary(String service, List<String> instances, long lastSeenMs) {
}
