package io.argus.core.state;

import io.argus.bridge.state.LongField;

import java.util.concurrent.atomic.AtomicLong;

/** A long field whose owners without the real field keep it, boxed, in a bounded weak identity map. */
final class MappedLongField extends LongField {

    private final WeakIdentityMap<Long> map;
    private final AtomicLong dropped;

    MappedLongField(String name, int slot, int maxMapped, AtomicLong dropped) {
        super(name, slot);
        this.map = new WeakIdentityMap<Long>(maxMapped);
        this.dropped = dropped;
    }

    @Override
    protected long mappedGet(Object owner) {
        Long value = map.size() == 0 ? null : map.get(owner);
        return value == null ? 0 : value;
    }

    @Override
    protected void mappedSet(Object owner, long value) {
        if (value == 0) {
            mappedRemove(owner);
        } else if (!map.put(owner, value)) {
            dropped.incrementAndGet();
        }
    }

    @Override
    protected long mappedRemove(Object owner) {
        Long value = map.size() == 0 ? null : map.remove(owner);
        return value == null ? 0 : value;
    }
}
