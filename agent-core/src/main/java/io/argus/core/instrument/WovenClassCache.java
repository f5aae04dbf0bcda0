package io.argus.core.instrument;

import io.argus.core.AgentLog;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

/**
 * Woven class files kept between runs, so that a restarted application defines the bytes the engine made
 * last time instead of starting ByteBuddy's advice machinery cold, the largest part of the agent's
 * start-up (its classes, their verification, and the JIT compiling them beside the application's start).
 *
 * <p>An entry holds the class file the weaver was given, whole, and is used only for those exact bytes: a
 * changed library misses. Entries live in a folder named by a digest of the agent's build, the JVM and
 * every probe's declaration (plugins enabled, methods matched, advice), so another build or another
 * configuration starts a folder of its own; the folders of other builds are pruned, the newest few kept.
 * An entry that cannot be read is a miss. The root is the user's own ({@code rwx------}); one anybody else
 * can write to is not used.
 */
public final class WovenClassCache {

    private static final int MAGIC = 0x41524743; // "ARGC"
    private static final int FORMAT = 2;
    private static final int MAX_FILE_NAME = 160;
    public static final int KEEP_FOLDERS = 8;
    /**
     * Entries of one configuration's folder, in bytes, past which the oldest go: a long-lived host whose
     * application changes its libraries at every deploy would otherwise keep every version's classes.
     */
    public static final long MAX_FOLDER_BYTES = 64L << 20;
    /** In each configuration's folder: the build and probes it is for, whole. */
    static final String DESCRIPTION = "description";
    /** In each build's folder, per configuration: the name of the folder its last start used. */
    static final String LAST_USED = "last-used-";

    private final File folder;
    private final boolean warm;
    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong stored = new AtomicLong();
    /** The entries this JVM used: kept when the folder is trimmed. */
    private final Set<File> used = Collections.newSetFromMap(new ConcurrentHashMap<File, Boolean>());
    /** For {@link #findAnyProbes}: each entry's file by its name up to the probes; "" for two or more. */
    private final Map<String, String> entriesByInput;

    private WovenClassCache(File folder, boolean warm) {
        this(folder, warm, null);
    }

    private WovenClassCache(File folder, boolean warm, Map<String, String> entriesByInput) {
        this.folder = folder;
        this.warm = warm;
        this.entriesByInput = entriesByInput;
    }

    /** A cache that keeps nothing. */
    public static WovenClassCache disabled() {
        return new WovenClassCache(null, false);
    }

    /**
     * The cache in {@code root}, in the folder of {@code buildKey} and {@code probesKey}; disabled (with one
     * logged line) when the root cannot be made or is not the user's own.
     */
    public static WovenClassCache open(File root, String buildKey, String probesKey) {
        try {
            if (!ownFolder(root)) {
                return disabled();
            }
            File folder = new File(new File(root, digest(buildKey)), digest(probesKey));
            boolean warm = holdsEntries(folder);
            if (!folder.isDirectory() && !folder.mkdirs() && !folder.isDirectory()) {
                AgentLog.warn("class cache: cannot create " + folder + "; classes are woven at every start");
                return disabled();
            }
            byte[] description = (buildKey + "\n" + probesKey).getBytes(StandardCharsets.UTF_8);
            File described = new File(folder, DESCRIPTION);
            if (!described.isFile()) {
                Files.write(described.toPath(), description);
            } else if (!Arrays.equals(Files.readAllBytes(described.toPath()), description)) {
                AgentLog.warn("class cache: " + folder + " belongs to another build or configuration; not used");
                return disabled();
            }
            return new WovenClassCache(folder, warm);
        } catch (IOException | RuntimeException e) {
            AgentLog.warn("class cache: " + root + " cannot be used (" + e + "); classes are woven at every start");
            return disabled();
        }
    }

    /** Whether the root has an entry of this build already: a quick look, before the probes are known. */
    public static boolean hasEntries(File root, String buildKey) {
        File[] configurations = new File(root, digest(buildKey)).listFiles();
        if (configurations != null) {
            for (File configuration : configurations) {
                if (holdsEntries(configuration)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The folder that the last start with this build and configuration used ({@link #rememberConfiguration}),
     * opened before the plugins are loaded, for {@link #findAnyProbes}; disabled when there is none. The
     * probes are not known yet: the engine checks the classes defined from it once they are.
     */
    public static WovenClassCache openEarly(File root, String buildKey, String configurationKey) {
        try {
            File build = new File(root, digest(buildKey));
            File pointer = new File(build, LAST_USED + digest(configurationKey));
            if (!pointer.isFile() || !ownFolder(root)) {
                return disabled();
            }
            String folderName = new String(Files.readAllBytes(pointer.toPath()), StandardCharsets.UTF_8).trim();
            File folder = new File(build, folderName);
            if (folderName.isEmpty() || folderName.contains("/") || folderName.contains(File.separator)
                    || !startsWith(new File(folder, DESCRIPTION), (buildKey + "\n").getBytes(StandardCharsets.UTF_8))) {
                return disabled();
            }
            String[] files = folder.list();
            if (files == null) {
                return disabled();
            }
            Map<String, String> byInput = new HashMap<String, String>(files.length * 2);
            for (String file : files) {
                int end = file.lastIndexOf('-');
                if (end > 0 && !file.endsWith(".tmp")) {
                    String before = byInput.put(file.substring(0, end + 1), file);
                    if (before != null) {
                        byInput.put(file.substring(0, end + 1), ""); // woven with other probes too: ambiguous
                    }
                }
            }
            return new WovenClassCache(folder, true, byInput);
        } catch (IOException | RuntimeException e) {
            AgentLog.debug("class cache: no early look-up (" + e + ")");
            return disabled();
        }
    }

    private static boolean startsWith(File file, byte[] prefix) throws IOException {
        if (!file.isFile()) {
            return false;
        }
        byte[] content = Files.readAllBytes(file.toPath());
        return content.length >= prefix.length && Arrays.equals(Arrays.copyOf(content, prefix.length), prefix);
    }

    /**
     * Notes this folder as the one for {@code configurationKey}, for the next start's {@link #openEarly}.
     * Written only when it changes, to a file of its own and renamed.
     */
    public void rememberConfiguration(String configurationKey) {
        if (folder == null) {
            return;
        }
        File pointer = new File(folder.getParentFile(), LAST_USED + digest(configurationKey));
        byte[] content = folder.getName().getBytes(StandardCharsets.UTF_8);
        try {
            if (!pointer.isFile() || !Arrays.equals(Files.readAllBytes(pointer.toPath()), content)) {
                writeWhole(pointer, content);
            }
        } catch (IOException e) {
            AgentLog.debug("class cache: cannot note the folder of this configuration (" + e + ")");
        }
    }

    /** Whether a configuration's folder holds more than its {@value #DESCRIPTION}. */
    private static boolean holdsEntries(File folder) {
        String[] files = folder.list();
        return files != null && files.length > 1;
    }

    public boolean isEnabled() {
        return folder != null;
    }

    /** Whether the folder had entries when opened: a restart of the same application, most likely. */
    public boolean isWarm() {
        return warm;
    }

    public long hits() {
        return hits.get();
    }

    public long stored() {
        return stored.get();
    }

    /**
     * The woven class file kept for exactly {@code input} with these probes, or null: a miss.
     *
     * @param probes which of the engine's probes apply, as the engine names them
     */
    public Entry find(String internalName, String probes, byte[] input) {
        if (folder == null) {
            return null;
        }
        File file = file(internalName, probes, input);
        return file.isFile() ? read(file, internalName, probes, input) : null;
    }

    /**
     * As {@link #find}, before the engine knows which probes apply: the one entry for exactly {@code input},
     * whatever its probes ({@link Entry#probes} says which). Null when there is none, or more than one (the
     * class was woven with other probes too), or the cache was not opened by {@link #openEarly}.
     */
    public Entry findAnyProbes(String internalName, byte[] input) {
        Map<String, String> byInput = entriesByInput;
        if (byInput == null) {
            return null;
        }
        String fileName = byInput.get(inputPrefix(internalName, input));
        return fileName == null || fileName.isEmpty() ? null
                : read(new File(folder, fileName), internalName, null, input);
    }

    /** The entry in {@code file} if it was made from {@code input} (and with {@code probes}, unless null). */
    private Entry read(File file, String internalName, String probes, byte[] input) {
        try {
            byte[] data = Files.readAllBytes(file.toPath());
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
            if (in.readInt() != MAGIC || in.readInt() != FORMAT || !in.readUTF().equals(internalName)) {
                return null;
            }
            String keptProbes = in.readUTF();
            if (probes != null && !keptProbes.equals(probes)) {
                return null;
            }
            int helperCount = length(in, data.length);
            Map<String, byte[]> helpers = new LinkedHashMap<String, byte[]>(helperCount * 2);
            for (int i = 0; i < helperCount; i++) {
                String helper = in.readUTF();
                byte[] helperFile = new byte[length(in, data.length)];
                in.readFully(helperFile);
                helpers.put(helper, helperFile);
            }
            byte[] kept = new byte[length(in, data.length)];
            in.readFully(kept);
            if (!Arrays.equals(kept, input)) {
                return null;
            }
            int outputLength = in.readInt(); // -1: the class as it is
            byte[] output = null;
            if (outputLength != -1) {
                if (outputLength < 0 || outputLength > data.length) {
                    throw new IOException("bad length " + outputLength);
                }
                output = new byte[outputLength];
                in.readFully(output);
            }
            hits.incrementAndGet();
            used.add(file);
            return new Entry(output, helpers, keptProbes);
        } catch (IOException | RuntimeException e) {
            AgentLog.debug("class cache: " + file + " cannot be read (" + e + "); woven again");
            return null;
        }
    }

    /** A length read from an entry, which cannot exceed the entry's own size. */
    private static int length(DataInputStream in, int entrySize) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > entrySize) {
            throw new IOException("bad length " + length);
        }
        return length;
    }

    /**
     * Keeps what the weaver made of {@code input}: {@code output} null when it left the class as it is, and
     * the helper classes it defined for it, by name with their class files (a restart defines them without
     * looking them up among the agent's jars). Written to a file of its own, then renamed, so that a JVM reading
     * the folder meanwhile sees a whole entry or none.
     */
    /**
     * Keeps that no probe applies to the class {@code input} (an entry without output), unless kept already: the
     * next start's early look-up then lets it through at once instead of waiting for the engine.
     */
    public void keepUnchanged(String internalName, byte[] input) {
        if (folder != null && !file(internalName, "", input).isFile()) {
            store(internalName, "", input, null, Collections.<String, byte[]>emptyMap());
        }
    }

    public void store(String internalName, String probes, byte[] input, byte[] output, Map<String, byte[]> helpers) {
        if (folder == null) {
            return;
        }
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(input.length * 2 + 256);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(MAGIC);
            out.writeInt(FORMAT);
            out.writeUTF(internalName);
            out.writeUTF(probes);
            out.writeInt(helpers.size());
            for (Map.Entry<String, byte[]> helper : helpers.entrySet()) {
                out.writeUTF(helper.getKey());
                out.writeInt(helper.getValue().length);
                out.write(helper.getValue());
            }
            out.writeInt(input.length);
            out.write(input);
            out.writeInt(output == null ? -1 : output.length);
            if (output != null) {
                out.write(output);
            }
            out.flush();
            writeWhole(file(internalName, probes, input), bytes.toByteArray());
            stored.incrementAndGet();
        } catch (IOException e) {
            AgentLog.debug("class cache: cannot keep " + internalName + " (" + e + ")");
        }
    }

    /** Writes {@code target} through a file of its own, renamed: a reader meanwhile sees all of it or none. */
    private static void writeWhole(File target, byte[] content) throws IOException {
        File temp = File.createTempFile("entry", ".tmp", target.getParentFile());
        try {
            Files.write(temp.toPath(), content);
            try {
                Files.move(temp.toPath(), target.toPath(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp.toPath(), target.toPath(), StandardCopyOption.REPLACE_EXISTING);
            }
            temp = null;
        } finally {
            if (temp != null && !temp.delete()) {
                temp.deleteOnExit();
            }
        }
    }

    /** Counts the entries {@code other} served (the start gate's early view) as used by this JVM, for the trim. */
    public void alsoUsed(WovenClassCache other) {
        used.addAll(other.used);
    }

    /**
     * Deletes the folders of other builds, and of this build's other configurations, but the {@code keep}
     * newest of each besides this one's; then trims this folder's entries to {@code maxFolderBytes}.
     */
    public void prune(int keep, long maxFolderBytes) {
        if (folder == null) {
            return;
        }
        File build = folder.getParentFile();
        build.setLastModified(System.currentTimeMillis());
        folder.setLastModified(System.currentTimeMillis());
        pruneSiblings(folder, keep);
        pruneSiblings(build, keep);
        trimEntries(maxFolderBytes);
    }

    /**
     * When this folder's entries exceed {@code maxBytes}, deletes the oldest until they take half of it, after
     * marking the ones this JVM used as new. An entry deleted that a later class needs is woven again.
     */
    private void trimEntries(long maxBytes) {
        File[] files = folder.listFiles();
        if (files == null) {
            return;
        }
        List<File> entries = new ArrayList<File>(files.length);
        long total = 0;
        for (File file : files) {
            if (file.isFile() && !file.getName().equals(DESCRIPTION)) {
                entries.add(file);
                total += file.length();
            }
        }
        if (total <= maxBytes) {
            return;
        }
        long now = System.currentTimeMillis();
        for (File file : used) {
            file.setLastModified(now);
        }
        final Map<File, Long> modified = new HashMap<File, Long>(entries.size() * 2);
        for (File file : entries) {
            modified.put(file, file.lastModified());
        }
        Collections.sort(entries, (a, b) -> Long.compare(modified.get(a), modified.get(b)));
        int deleted = 0;
        for (File oldest : entries) {
            if (total <= maxBytes / 2) {
                break;
            }
            long length = oldest.length();
            if (oldest.delete()) {
                total -= length;
                deleted++;
            }
        }
        AgentLog.debug("class cache: " + deleted + " of " + entries.size() + " entries deleted from " + folder
                + ", over " + (maxBytes >> 20) + " MB");
    }

    private static void pruneSiblings(File kept, int keep) {
        File[] folders = kept.getParentFile().listFiles();
        if (folders == null || folders.length <= keep) {
            return;
        }
        List<File> others = new ArrayList<File>();
        for (File other : folders) {
            if (other.isDirectory() && !other.equals(kept)) {
                others.add(other);
            }
        }
        Collections.sort(others, (a, b) -> Long.compare(b.lastModified(), a.lastModified()));
        for (int i = keep - 1; i < others.size(); i++) {
            deleteTree(others.get(i));
        }
    }

    private static void deleteTree(File file) {
        File[] children = file.listFiles();
        if (children != null) {
            for (File child : children) {
                deleteTree(child);
            }
        }
        file.delete();
    }

    public File folder() {
        return folder;
    }

    private File file(String internalName, String probes, byte[] input) {
        return new File(folder, inputPrefix(internalName, input) + Integer.toHexString(probes.hashCode()));
    }

    /** An entry's file name up to its probes: the class's name and its input's checksum. */
    private static String inputPrefix(String internalName, byte[] input) {
        CRC32 crc = new CRC32();
        crc.update(input, 0, input.length);
        String name = internalName.replace('/', '.');
        if (name.length() > MAX_FILE_NAME) {
            name = digest(name);
        }
        return name + "-" + Long.toHexString(crc.getValue()) + "-";
    }

    /**
     * Makes {@code root} with owner-only permissions where the file system has them; false, logged, when it
     * exists and others may write to it or it is not the user's.
     */
    private static boolean ownFolder(File root) {
        Path path = root.toPath();
        boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
        try {
            if (!root.isDirectory()) {
                if (posix) {
                    Files.createDirectories(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                } else {
                    Files.createDirectories(path);
                }
            }
            if (posix) {
                Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path);
                String owner = Files.getOwner(path).getName();
                if (permissions.contains(PosixFilePermission.GROUP_WRITE) || permissions.contains(PosixFilePermission.OTHERS_WRITE)
                        || !owner.equals(System.getProperty("user.name"))) {
                    AgentLog.warn("class cache: " + root + " belongs to " + owner + " or others may write to it;"
                            + " not used, classes are woven at every start");
                    return false;
                }
            }
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            AgentLog.warn("class cache: cannot create " + root + " (" + e + "); classes are woven at every start");
            return false;
        }
    }

    /**
     * A folder name for {@code text}: 64-bit FNV-1a, not a cryptographic digest, whose provider takes tens of
     * milliseconds to load on the start-up's critical path. A configuration's folder keeps its whole
     * description in {@value #DESCRIPTION}, so a collision is told apart.
     */
    static String digest(String text) {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < text.length(); i++) {
            hash ^= text.charAt(i);
            hash *= 0x100000001b3L;
        }
        String hex = Long.toHexString(hash);
        return "0000000000000000".substring(hex.length()) + hex;
    }

    /** A kept weave: the class file to define (null: the class as it is), and the helpers it needs first. */
    public static final class Entry {
        public final byte[] output;
        /** The helper classes to define first, in order: their names and class files. */
        public final Map<String, byte[]> helpers;
        /** Which of the engine's probes it was woven with, as the engine names them. */
        public final String probes;

        Entry(byte[] output, Map<String, byte[]> helpers, String probes) {
            this.output = output;
            this.helpers = helpers;
            this.probes = probes;
        }
    }
}
