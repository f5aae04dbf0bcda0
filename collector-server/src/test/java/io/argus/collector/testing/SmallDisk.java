package io.argus.collector.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A data directory on a file system that a test can fill up and give space again.
 *
 * <p>{@link #create} mounts a 20 MiB tmpfs there when this process may mount (root, as in CI): filling writes a
 * ballast file until the file system answers {@code ENOSPC}, freeing deletes it, so DuckDB meets a real full disk.
 * Where mounting is not permitted it falls back to a fault injected under DuckDB by the kernel: {@code prlimit}
 * lowers this JVM's {@code RLIMIT_FSIZE} to the size of the largest file in the directory, so that every write
 * growing a file further fails ({@code EFBIG}; the JVM ignores {@code SIGXFSZ}), and freeing lifts the limit.
 * {@link #kind()} says which one a run used. {@code -Dargus.test.smallDisk=fsize} forces the fallback.
 */
public abstract class SmallDisk implements AutoCloseable {
    private final Path dir;

    SmallDisk(Path dir) {
        this.dir = dir;
    }

    /** A tmpfs under {@code parent} when mounting works, else the file-size limit on a plain folder. */
    public static SmallDisk create(Path parent) throws IOException, InterruptedException {
        Path mount = Files.createDirectories(parent.resolve("small-disk"));
        if (!"fsize".equals(System.getProperty("argus.test.smallDisk"))) {
            String why = run(List.of("mount", "-t", "tmpfs", "-o", "size=20m", "tmpfs", mount.toString()));
            if (why == null) {
                return new Tmpfs(mount);
            }
            System.err.println("SmallDisk: cannot mount a tmpfs (" + why + "); using RLIMIT_FSIZE on this JVM instead");
        }
        return new FileSizeLimit(mount);
    }

    public Path dir() {
        return dir;
    }

    /** Which fault this run injects, for the test's report. */
    public abstract String kind();

    /** From now on, writes that need more space fail. */
    public abstract void fill() throws IOException, InterruptedException;

    /** Space is back. */
    public abstract void free() throws IOException, InterruptedException;

    /** Runs a command; {@code null} when it succeeded, else why not. */
    static String run(List<String> command) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return e.getMessage();
        }
        boolean done = p.waitFor(30, TimeUnit.SECONDS);
        String out = new String(p.getInputStream().readAllBytes()).strip();
        if (!done) {
            p.destroyForcibly();
            return String.join(" ", command) + " timed out";
        }
        return p.exitValue() == 0 ? null : String.join(" ", command) + ": exit " + p.exitValue() + " " + out;
    }

    /** A real 20 MiB tmpfs; full means a ballast file took every free block. */
    static final class Tmpfs extends SmallDisk {
        private final Path ballast;

        Tmpfs(Path dir) {
            super(dir);
            this.ballast = dir.resolve("ballast");
        }

        @Override
        public String kind() {
            return "a 20 MiB tmpfs filled by a ballast file";
        }

        @Override
        public void fill() throws IOException {
            try (OutputStream out = Files.newOutputStream(ballast)) {
                for (int chunk : new int[] {1 << 20, 4096, 1}) {
                    byte[] bytes = new byte[chunk];
                    try {
                        while (true) {
                            out.write(bytes);
                            out.flush();
                        }
                    } catch (IOException full) {
                        // on to smaller chunks, until not a byte fits
                    }
                }
            } catch (IOException closing) {
                // the last buffered bytes do not fit either: that is the point
            }
        }

        @Override
        public void free() throws IOException {
            Files.deleteIfExists(ballast);
        }

        @Override
        public void close() throws IOException, InterruptedException {
            String failed = run(List.of("umount", "-l", dir().toString()));
            if (failed != null) {
                System.err.println("SmallDisk: " + failed);
            }
        }
    }

    /** RLIMIT_FSIZE of this JVM, set and lifted with {@code prlimit}. */
    static final class FileSizeLimit extends SmallDisk {
        FileSizeLimit(Path dir) {
            super(dir);
        }

        @Override
        public String kind() {
            return "RLIMIT_FSIZE of the collector's JVM (no permission to mount a tmpfs)";
        }

        @Override
        public void fill() throws IOException, InterruptedException {
            long largest = 4096;
            try (Stream<Path> files = Files.walk(dir())) {
                for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                    largest = Math.max(largest, Files.size(f));
                }
            }
            limit(Long.toString(largest));
        }

        @Override
        public void free() throws IOException, InterruptedException {
            limit("unlimited");
        }

        private static void limit(String soft) throws IOException, InterruptedException {
            String failed = run(List.of("prlimit", "--pid", Long.toString(ProcessHandle.current().pid()),
                    "--fsize=" + soft + ":"));
            if (failed != null) {
                throw new IOException("cannot set RLIMIT_FSIZE: " + failed);
            }
        }

        @Override
        public void close() throws IOException, InterruptedException {
            free();
        }
    }
}
