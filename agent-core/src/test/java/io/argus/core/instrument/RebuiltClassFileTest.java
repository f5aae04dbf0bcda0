package io.argus.core.instrument;

import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class RebuiltClassFileTest {

    /** The JVM's rebuilt class files differ in their methods' order only: every order gives the same key. */
    @Test
    void everyOrderOfAClassesMethodsGivesTheSameBytes() throws Exception {
        byte[] original = Files.readAllBytes(Paths.get(URI.create("jrt:/java.base/java/util/concurrent/ThreadPoolExecutor.class")));
        byte[] key = RebuiltClassFile.withMethodsSorted(original);
        assertThat(key).hasSameSizeAs(original);
        Random random = new Random(42);
        for (int round = 0; round < 10; round++) {
            List<byte[]> methods = new ArrayList<byte[]>(Arrays.asList(RebuiltClassFile.methods(original)));
            Collections.shuffle(methods, random);
            byte[] reordered = RebuiltClassFile.withMethods(original, methods.toArray(new byte[0][]));
            assertThat(reordered).isNotEqualTo(original);
            assertThat(RebuiltClassFile.withMethodsSorted(reordered)).isEqualTo(key);
        }
        assertThat(RebuiltClassFile.methods(key).length).isEqualTo(RebuiltClassFile.methods(original).length);
    }

    /** The sorted bytes are still the class: a loader defines them and its methods run. */
    @Test
    void theSortedClassFileDefinesAWorkingClass() throws Exception {
        byte[] original;
        try (InputStream in = Sample.class.getResourceAsStream("RebuiltClassFileTest$Sample.class")) {
            original = ClassFiles.readAll(in);
        }
        byte[][] methods = RebuiltClassFile.methods(original);
        Collections.reverse(Arrays.asList(methods));
        byte[] sorted = RebuiltClassFile.withMethodsSorted(RebuiltClassFile.withMethods(original, methods));
        Class<?> defined = new ClassLoader(null) {
            Class<?> define() {
                return defineClass(Sample.class.getName(), sorted, 0, sorted.length);
            }
        }.define();
        Method twice = defined.getDeclaredMethod("twice", int.class);
        Method greet = defined.getDeclaredMethod("greet", String.class);
        assertThat(twice.invoke(null, 21)).isEqualTo(42);
        assertThat(greet.invoke(null, "x")).isEqualTo("hello x");
    }

    @Test
    void bytesThatAreNotAClassFileAreKeyedAsTheyAre() {
        byte[] junk = {1, 2, 3};
        byte[] truncated = Arrays.copyOf(new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE, 0, 0, 0, 52, 0, 3, 1}, 11);
        assertThat(RebuiltClassFile.withMethodsSorted(junk)).isSameAs(junk);
        assertThat(RebuiltClassFile.withMethodsSorted(truncated)).isSameAs(truncated);
    }

    public static final class Sample {
        public static String greet(String name) {
            return "hello " + name;
        }

        public static int twice(int value) {
            return value * 2;
        }

        public static long sum(long a, long b) {
            return a + b;
        }
    }
}
