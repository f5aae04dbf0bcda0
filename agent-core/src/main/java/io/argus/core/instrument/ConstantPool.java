package io.argus.core.instrument;

/** Where each entry of a class file's constant pool starts, found by skipping entries by their tags. */
final class ConstantPool {

    private ConstantPool() {
    }

    /**
     * The offset of each entry by its index (0 and the second slot of a long or double stay 0), and at index
     * {@code count} (the pool's count) the offset just past the pool; null when the bytes are not a class
     * file or hold a tag this reader does not know.
     */
    static int[] offsets(byte[] b) {
        if (b == null || b.length < 10 || u2(b, 0) != 0xCAFE || u2(b, 2) != 0xBABE) {
            return null;
        }
        int count = u2(b, 8);
        int[] offsets = new int[count + 1];
        int p = 10;
        for (int i = 1; i < count; i++) {
            if (p >= b.length) {
                return null;
            }
            offsets[i] = p;
            switch (b[p] & 0xFF) {
                case 1: // Utf8
                    p += 3 + u2(b, p + 1);
                    break;
                case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18: // 4-byte entries
                    p += 5;
                    break;
                case 5: case 6: // Long, Double: two slots
                    p += 9;
                    i++;
                    break;
                case 7: case 8: case 16: case 19: case 20: // Class, String, MethodType, Module, Package
                    p += 3;
                    break;
                case 15: // MethodHandle
                    p += 4;
                    break;
                default:
                    return null;
            }
        }
        if (p > b.length) {
            return null;
        }
        offsets[count] = p;
        return offsets;
    }

    static int u2(byte[] b, int p) {
        return ((b[p] & 0xFF) << 8) | (b[p + 1] & 0xFF);
    }

    static int u4(byte[] b, int p) {
        return (u2(b, p) << 16) | u2(b, p + 2);
    }
}
