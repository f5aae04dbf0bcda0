package io.argus.core.state;

import io.argus.bridge.state.ObjectField;

import java.util.concurrent.atomic.AtomicLong;

/** An object field whose owners without the real field keep it in a bounded weak identity map. */
final class MappedObjectField<T> extends ObjectField<T> {

    private final WeakIdentityMap<Object> map;
    private final AtomicLong dropped;

    MappedObjectField(String name, int slot, int maxMapped, AtomicLong dropped) {
        super(name, slot);
        this.map = new WeakIdentityMap<Object>(maxMapped);
        this.dropped = dropped;
    }

    @Override
    protected Object mappedGet(Object owner) {
        return map.size() == 0 ? null : map.get(owner);
    }

    @Override
    protected void mappedSet(Object owner, Object value) {
        if (value == null) {
            mappedRemove(owner);
        } else if (!map.put(owner, value)) {
            dropped.incrementAndGet();
        }
    }

    @Override
    protected Object mappedRemove(Object owner) {
        // the common case for carriers that rarely hold anything (tasks, threads): one volatile read
        return map.size() == 0 ? null : map.remove(owner);
    }

    int mappedSize() {
        return map.size();
    }
}
