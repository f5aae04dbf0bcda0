package io.argus.core.state;

import io.argus.bridge.state.LongField;
import io.argus.bridge.state.ObjectField;
import io.argus.core.plugin.FieldDeclaration;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Gives every field the plugins declared a slot, publishes it to the bridge, and tells the engine
 * which slots each owner class gets as real fields. Start-up only.
 */
public final class FieldRegistry {

    /** Objects per field kept in the map for owners without the real field; beyond that, drops are counted. */
    static final int MAX_MAPPED = 100_000;

    private final Map<String, Integer> objectSlots = new LinkedHashMap<String, Integer>();
    private final Map<String, Integer> longSlots = new LinkedHashMap<String, Integer>();
    private final Map<String, OwnerFields> owners = new LinkedHashMap<String, OwnerFields>();
    private final AtomicLong dropped;

    public FieldRegistry(AtomicLong dropped) {
        this.dropped = dropped;
    }

    /**
     * Declares the fields; one declared before (the same owner, name and kind) is left as it is. Returns the
     * declarations that were new: the plugins' own, declared after the index's ({@code PluginIndex}), should
     * add none.
     */
    public List<FieldDeclaration> declare(List<FieldDeclaration> declarations) {
        List<FieldDeclaration> added = new ArrayList<FieldDeclaration>(0);
        for (FieldDeclaration declaration : declarations) {
            int slot = slot(declaration.fieldName(), declaration.isLong());
            OwnerFields owner = owners.get(declaration.ownerClassName());
            if (owner == null) {
                owner = new OwnerFields(declaration.ownerClassName());
                owners.put(declaration.ownerClassName(), owner);
            }
            if (owner.add(declaration.isLong(), slot)) {
                added.add(declaration);
            }
        }
        return added;
    }

    /** Declares an object field of the core's own (plugins may add owners); returns it. */
    public ObjectField<Object> declareObjectField(String name) {
        slot(name, false);
        return ObjectField.named(name);
    }

    private int slot(String name, boolean isLong) {
        Map<String, Integer> slots = isLong ? longSlots : objectSlots;
        Integer slot = slots.get(name);
        if (slot == null) {
            slot = slots.size();
            slots.put(name, slot);
            if (isLong) {
                LongField.declare(new MappedLongField(name, slot, MAX_MAPPED, dropped));
            } else {
                ObjectField.declare(new MappedObjectField<Object>(name, slot, MAX_MAPPED, dropped));
            }
        }
        return slot;
    }

    /** The owner classes and the slots each gets, by class name. */
    public Map<String, OwnerFields> owners() {
        return Collections.unmodifiableMap(owners);
    }

    /** The real fields one owner class gets: slot numbers of its object and long fields. */
    public static final class OwnerFields {
        private final String className;
        private final List<Integer> objectSlots = new ArrayList<Integer>();
        private final List<Integer> longSlots = new ArrayList<Integer>();

        OwnerFields(String className) {
            this.className = className;
        }

        boolean add(boolean isLong, int slot) {
            List<Integer> slots = isLong ? longSlots : objectSlots;
            if (slots.contains(slot)) {
                return false;
            }
            slots.add(slot);
            return true;
        }

        public String className() {
            return className;
        }

        public int[] objectSlots() {
            return toArray(objectSlots);
        }

        public int[] longSlots() {
            return toArray(longSlots);
        }

        private static int[] toArray(List<Integer> slots) {
            int[] sorted = new int[slots.size()];
            for (int i = 0; i < sorted.length; i++) {
                sorted[i] = slots.get(i);
            }
            java.util.Arrays.sort(sorted);
            return sorted;
        }
    }
}
