package io.argus.collector.storage;

/** A trace matches when one of its spans has tag {@code key} with exactly {@code value}. */
public record TagFilter(String key, String value) {
    public TagFilter {
        if (key == null || key.isEmpty() || value == null) {
            throw new IllegalArgumentException("a tag filter needs a key and a value");
        }
    }
}
