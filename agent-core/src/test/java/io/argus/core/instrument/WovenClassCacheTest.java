package io.argus.core.instrument;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Woven classes kept between runs: used only for the exact class file, probes, build and configuration. */
class WovenClassCacheTest {

    private static final byte[] INPUT = bytes(3000, 1);
    private static final byte[] OUTPUT = bytes(3400, 2);

    @TempDir
    File dir;

    @Test
    void aStoredWeaveIsFoundForTheSameBytesAndProbesOnly() {
        File root = new File(dir, "cache");
        WovenClassCache first = WovenClassCache.open(root, "build 1", "probes A");
        assertThat(first.isEnabled()).isTrue();
        assertThat(first.isWarm()).as("a new folder").isFalse();
        assertThat(WovenClassCache.hasEntries(root, "build 1")).isFalse();
        first.store("org/example/Server", "3", INPUT, OUTPUT, helpers("org.example.Helper", "org.example.Helper$1"));
        first.store("org/example/Plain", "4", INPUT, null, helpers());
        assertThat(first.stored()).isEqualTo(2);

        assertThat(WovenClassCache.hasEntries(root, "build 1")).isTrue();
        assertThat(WovenClassCache.hasEntries(root, "build 2")).isFalse();
        WovenClassCache restarted = WovenClassCache.open(root, "build 1", "probes A");
        assertThat(restarted.isWarm()).isTrue();
        WovenClassCache.Entry entry = restarted.find("org/example/Server", "3", INPUT.clone());
        assertThat(entry).isNotNull();
        assertThat(entry.output).isEqualTo(OUTPUT);
        assertThat(entry.helpers.keySet()).containsExactly("org.example.Helper", "org.example.Helper$1");
        assertThat(entry.helpers.get("org.example.Helper$1")).as("the helper's class file").isEqualTo(bytes(700, 1));
        WovenClassCache.Entry unchanged = restarted.find("org/example/Plain", "4", INPUT);
        assertThat(unchanged).as("a class the probes left as it is").isNotNull();
        assertThat(unchanged.output).isNull();
        assertThat(restarted.hits()).isEqualTo(2);

        byte[] changedLibrary = INPUT.clone();
        changedLibrary[1500] ^= 1;
        assertThat(restarted.find("org/example/Server", "3", changedLibrary)).as("other bytes").isNull();
        assertThat(restarted.find("org/example/Server", "3,5", INPUT)).as("other probes apply").isNull();
        assertThat(restarted.find("org/example/Other", "3", INPUT)).as("another class").isNull();
        assertThat(WovenClassCache.open(root, "build 1", "probes B").find("org/example/Server", "3", INPUT))
                .as("another configuration").isNull();
        assertThat(WovenClassCache.open(root, "build 2", "probes A").find("org/example/Server", "3", INPUT))
                .as("another build").isNull();
    }

    @Test
    void aRestartFindsTheLastFolderOfItsConfigurationBeforeItKnowsTheProbes() {
        File root = new File(dir, "cache");
        assertThat(WovenClassCache.openEarly(root, "build 1", "sampling 0").isEnabled()).as("no earlier start").isFalse();
        WovenClassCache first = WovenClassCache.open(root, "build 1", "probes A");
        first.store("org/example/Server", "3", INPUT, OUTPUT, helpers("org.example.Helper"));
        first.store("org/example/Plain", "4", INPUT, null, helpers());
        first.store("org/example/Twice", "1", INPUT, OUTPUT, helpers());
        first.store("org/example/Twice", "1,2", INPUT, OUTPUT, helpers());
        first.rememberConfiguration("sampling 0");

        WovenClassCache early = WovenClassCache.openEarly(root, "build 1", "sampling 0");
        assertThat(early.isEnabled()).isTrue();
        assertThat(early.folder()).isEqualTo(first.folder());
        WovenClassCache.Entry server = early.findAnyProbes("org/example/Server", INPUT.clone());
        assertThat(server).isNotNull();
        assertThat(server.output).isEqualTo(OUTPUT);
        assertThat(server.probes).as("the entry says which probes it was woven with").isEqualTo("3");
        assertThat(server.helpers.keySet()).containsExactly("org.example.Helper");
        assertThat(early.findAnyProbes("org/example/Plain", INPUT).output).isNull();
        assertThat(early.findAnyProbes("org/example/Twice", INPUT)).as("woven with two sets of probes: ambiguous").isNull();
        byte[] changedLibrary = INPUT.clone();
        changedLibrary[10] ^= 1;
        assertThat(early.findAnyProbes("org/example/Server", changedLibrary)).as("other bytes").isNull();
        assertThat(early.hits()).isEqualTo(2);

        assertThat(WovenClassCache.openEarly(root, "build 1", "sampling 100").isEnabled()).as("another configuration").isFalse();
        assertThat(WovenClassCache.openEarly(root, "build 2", "sampling 0").isEnabled()).as("another build").isFalse();
        assertThat(first.findAnyProbes("org/example/Server", INPUT)).as("only a cache opened early looks up by bytes").isNull();
    }

    @Test
    void aClassNoProbeAppliesToIsKeptOnceAndLetThroughOnTheStartAfter() {
        File root = new File(dir, "cache");
        WovenClassCache first = WovenClassCache.open(root, "build 1", "probes A");
        first.keepUnchanged("org/example/LookalikeConnection", INPUT);
        first.rememberConfiguration("sampling 0");
        File[] kept = first.folder().listFiles((d, name) -> name.startsWith("org_example_LookalikeConnection")
                || name.contains("LookalikeConnection"));
        assertThat(kept).hasSize(1);
        long written = kept[0].lastModified();
        assertThat(kept[0].setLastModified(written - 60_000)).isTrue();
        first.keepUnchanged("org/example/LookalikeConnection", INPUT);
        assertThat(kept[0].lastModified()).as("kept already: not written again").isEqualTo(written - 60_000);

        WovenClassCache.Entry entry = WovenClassCache.openEarly(root, "build 1", "sampling 0")
                .findAnyProbes("org/example/LookalikeConnection", INPUT);
        assertThat(entry).isNotNull();
        assertThat(entry.output).as("as it is").isNull();
        assertThat(entry.probes).as("no probe").isEmpty();
        assertThat(WovenClassCache.disabled().isEnabled()).isFalse();
        WovenClassCache.disabled().keepUnchanged("org/example/LookalikeConnection", INPUT); // nothing to write to
    }

    @Test
    void theLastFolderOfAConfigurationIsTheOneItsLatestStartUsed() {
        File root = new File(dir, "cache");
        WovenClassCache a = WovenClassCache.open(root, "build 1", "probes A");
        a.store("org/example/Server", "3", INPUT, OUTPUT, helpers());
        a.rememberConfiguration("settings");
        WovenClassCache b = WovenClassCache.open(root, "build 1", "probes B");
        b.store("org/example/Server", "5", INPUT, OUTPUT, helpers());
        b.rememberConfiguration("settings");
        assertThat(WovenClassCache.openEarly(root, "build 1", "settings").findAnyProbes("org/example/Server", INPUT).probes)
                .isEqualTo("5");
    }

    @Test
    void aDamagedEntryIsAMiss() throws IOException {
        File root = new File(dir, "cache");
        WovenClassCache cache = WovenClassCache.open(root, "build", "probes");
        cache.store("org/example/Server", "0", INPUT, OUTPUT, helpers());
        File[] entries = cache.folder().listFiles((d, name) -> name.startsWith("org.example.Server"));
        assertThat(entries).hasSize(1);
        try (RandomAccessFile file = new RandomAccessFile(entries[0], "rw")) {
            file.setLength(file.length() / 2);
        }
        assertThat(cache.find("org/example/Server", "0", INPUT)).isNull();
        Files.write(entries[0].toPath(), new byte[] {1, 2, 3});
        assertThat(cache.find("org/example/Server", "0", INPUT)).isNull();
        cache.store("org/example/Server", "0", INPUT, OUTPUT, helpers());
        assertThat(cache.find("org/example/Server", "0", INPUT).output).as("stored again").isEqualTo(OUTPUT);
    }

    @Test
    void aFolderDescribingAnotherConfigurationIsNotUsed() throws IOException {
        File root = new File(dir, "cache");
        WovenClassCache cache = WovenClassCache.open(root, "build", "probes");
        Files.write(new File(cache.folder(), WovenClassCache.DESCRIPTION).toPath(), "something else".getBytes("UTF-8"));
        assertThat(WovenClassCache.open(root, "build", "probes").isEnabled()).isFalse();
    }

    @Test
    void aRootOthersMayWriteToIsNotUsed() throws IOException {
        File root = new File(dir, "shared");
        assertThat(root.mkdir()).isTrue();
        Files.setPosixFilePermissions(root.toPath(), PosixFilePermissions.fromString("rwxrwxrwx"));
        WovenClassCache cache = WovenClassCache.open(root, "build", "probes");
        assertThat(cache.isEnabled()).isFalse();
        assertThat(cache.find("org/example/Server", "0", INPUT)).isNull();
        cache.store("org/example/Server", "0", INPUT, OUTPUT, helpers()); // nothing, no error
        assertThat(root.list()).isEmpty();

        File made = new File(dir, "made");
        assertThat(WovenClassCache.open(made, "build", "probes").isEnabled()).isTrue();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(made.toPath()))).isEqualTo("rwx------");
    }

    @Test
    void pruningKeepsTheNewestFoldersOfOtherBuildsAndConfigurations() {
        File root = new File(dir, "cache");
        for (int i = 0; i < 5; i++) {
            WovenClassCache old = WovenClassCache.open(root, "build " + i, "probes");
            old.store("org/example/Server", "0", INPUT, OUTPUT, helpers());
            old.folder().getParentFile().setLastModified(1_000_000L * (i + 1));
        }
        WovenClassCache current = WovenClassCache.open(root, "build 9", "probes");
        current.prune(3, WovenClassCache.MAX_FOLDER_BYTES);
        assertThat(root.list()).hasSize(3);
        assertThat(new File(root, WovenClassCache.digest("build 4"))).as("the newest other build").isDirectory();
        assertThat(new File(root, WovenClassCache.digest("build 3"))).isDirectory();
        assertThat(new File(root, WovenClassCache.digest("build 9"))).as("this one").isDirectory();
    }

    @Test
    void aFolderOverItsBoundKeepsWhatThisStartUsedAndTheNewestEntries() {
        File root = new File(dir, "cache");
        WovenClassCache before = WovenClassCache.open(root, "build", "probes");
        for (int i = 0; i < 10; i++) {
            byte[] version = INPUT.clone();
            version[0] = (byte) i; // a library changed at every deploy
            before.store("org/example/Server", "0", version, OUTPUT, helpers());
        }
        File[] entries = before.folder().listFiles((d, name) -> name.startsWith("org.example.Server-"));
        assertThat(entries).hasSize(10);
        long entryBytes = entries[0].length();
        for (int i = 0; i < entries.length; i++) {
            // deploy i's entry is i days old, the first deploy's the oldest
            byte first = readFirstInputByte(entries[i]);
            entries[i].setLastModified(System.currentTimeMillis() - (10 - first) * 86_400_000L);
        }
        byte[] firstDeploy = INPUT.clone();
        firstDeploy[0] = 0;

        before.rememberConfiguration("configuration");
        byte[] secondDeploy = INPUT.clone();
        secondDeploy[0] = 1;
        WovenClassCache early = WovenClassCache.openEarly(root, "build", "configuration");
        assertThat(early.findAnyProbes("org/example/Server", secondDeploy)).as("served at the start gate").isNotNull();
        WovenClassCache restarted = WovenClassCache.open(root, "build", "probes");
        assertThat(restarted.find("org/example/Server", "0", firstDeploy)).as("the oldest entry, used now").isNotNull();
        restarted.alsoUsed(early);
        restarted.prune(3, entryBytes * 10);
        assertThat(restarted.folder().list((d, name) -> name.startsWith("org.example.Server-")))
                .as("within the bound: nothing deleted").hasSize(10);

        restarted.prune(3, entryBytes * 6);
        File[] left = restarted.folder().listFiles((d, name) -> name.startsWith("org.example.Server-"));
        assertThat(left).as("trimmed to half the bound").hasSize(3);
        java.util.List<Byte> deploys = new java.util.ArrayList<>();
        for (File file : left) {
            deploys.add(readFirstInputByte(file));
        }
        assertThat(deploys).as("the entries this start used (one at the start gate) and the newest")
                .containsExactlyInAnyOrder((byte) 0, (byte) 1, (byte) 9);
        assertThat(new File(restarted.folder(), WovenClassCache.DESCRIPTION)).exists();
        assertThat(WovenClassCache.open(root, "build", "probes").find("org/example/Server", "0", firstDeploy))
                .isNotNull();
    }

    /** The first byte of the class file an entry was made from (it follows the name, probes and helpers). */
    private static byte readFirstInputByte(File entry) {
        try (java.io.DataInputStream in = new java.io.DataInputStream(new java.io.FileInputStream(entry))) {
            in.readInt();
            in.readInt();
            in.readUTF();
            in.readUTF();
            assertThat(in.readInt()).as("no helpers").isZero();
            in.readInt();
            return in.readByte();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Helper classes by name, each with a class file of its own length. */
    private static Map<String, byte[]> helpers(String... names) {
        Map<String, byte[]> helpers = new LinkedHashMap<>();
        for (int i = 0; i < names.length; i++) {
            helpers.put(names[i], bytes(600 + 100 * i, 1));
        }
        return helpers;
    }

    private static byte[] bytes(int length, int seed) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + seed);
        }
        return bytes;
    }
}
