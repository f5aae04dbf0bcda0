package io.argus.core.instrument;

import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/** The class file header reader agrees with the JVM's own view of a class, whatever its constant pool holds. */
class TypeHeaderTest {

    /** Long and double constants (two pool slots), a lambda (method handles, invokedynamic), a string. */
    static final class Constants implements Serializable, Supplier<String> {
        static final long BIG = 1L << 40;
        static final double PI = 3.141592653589793;

        @Override
        public String get() {
            Supplier<String> inner = () -> "x" + BIG + PI;
            return inner.get();
        }
    }

    interface Marker extends Serializable, Runnable {
    }

    enum Colour { RED }

    @Test
    void readsAccessSuperClassAndInterfacesAsReflectionSeesThem() {
        Class<?>[] types = {Constants.class, Marker.class, Colour.class, Object.class, String.class, Math.class,
                java.util.HashMap.class, java.util.concurrent.ConcurrentHashMap.class, Thread.class,
                java.sql.PreparedStatement.class, TypeHeaderTest.class};
        for (Class<?> type : types) {
            String internal = type.getName().replace('.', '/');
            TypeHeader header = TypeHeader.read(ClassFiles.read(type.getClassLoader(), internal + ".class"));
            assertThat(header).as(type.getName()).isNotNull();
            assertThat(header.isInterface()).as(type.getName()).isEqualTo(type.isInterface());
            // reflection gives an interface no super class; its class file names java/lang/Object
            String superName = type.isInterface() ? "java/lang/Object"
                    : type.getSuperclass() == null ? null : type.getSuperclass().getName().replace('.', '/');
            assertThat(header.superName).as(type.getName()).isEqualTo(superName);
            List<String> interfaces = new ArrayList<>();
            for (Class<?> i : type.getInterfaces()) {
                interfaces.add(i.getName().replace('.', '/'));
            }
            assertThat(header.interfaces).as(type.getName()).containsExactlyElementsOf(interfaces);
            TypeHeader loaded = TypeHeader.of(type);
            assertThat(loaded.isInterface()).as("loaded " + type.getName()).isEqualTo(header.isInterface());
            assertThat(loaded.superName).as("loaded " + type.getName()).isEqualTo(header.superName);
            assertThat(loaded.interfaces).as("loaded " + type.getName()).containsExactly(header.interfaces);
        }
    }

    @Test
    void somethingThatIsNotAClassFileHasNoHeader() {
        assertThat(TypeHeader.read(null)).isNull();
        assertThat(TypeHeader.read(new byte[0])).isNull();
        assertThat(TypeHeader.read(new byte[]{(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE, 0, 0, 0, 52, 0, 9, 99}))
                .as("an unknown constant pool tag").isNull();
        byte[] cut = ClassFiles.read(String.class.getClassLoader(), "java/lang/String.class");
        assertThat(TypeHeader.read(java.util.Arrays.copyOf(cut, 40))).as("cut off").isNull();
    }
}
