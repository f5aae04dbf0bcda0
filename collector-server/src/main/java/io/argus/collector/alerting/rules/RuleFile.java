package io.argus.collector.alerting.rules;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.logging.Logger;

/**
 * The rules file and what was last read from it. {@link #poll()} re-reads it when its time stamp or size changed;
 * a file that fails to parse is reported once (one WARN line naming the line) and the rules read before stay in
 * force until a good version is saved. Used from one thread (the evaluator's).
 */
public final class RuleFile {
    private static final Logger LOG = Logger.getLogger(RuleFile.class.getName());

    private final Path path;
    private final RuleFileParser parser;
    private volatile RuleSet rules = RuleSet.empty();
    private volatile Status status;
    private FileTime seenTime;
    private long seenSize = -1;

    /**
     * What the API shows of the file.
     *
     * @param path        the file
     * @param loadedAtMs  when the rules in force were read; 0 before any was read
     * @param error       why the latest version was refused, {@code null} when it is in force
     * @param errorLine   the line named by {@code error} (0: the whole file)
     */
    public record Status(String path, long loadedAtMs, String error, int errorLine) {
    }

    public RuleFile(Path path, RuleFileParser parser) {
        this.path = path;
        this.parser = parser;
        this.status = new Status(path.toString(), 0, null, 0);
    }

    /**
     * Reads the file at start. Unlike later changes, a first version that cannot be read is an error: the
     * collector should not start without the rules it was given.
     */
    public RuleSet load() throws RuleFileException {
        remember();
        rules = parser.read(path);
        status = new Status(path.toString(), System.currentTimeMillis(), null, 0);
        return rules;
    }

    /** Re-reads a changed file; returns whether the rules in force changed. */
    public boolean poll() {
        if (!remember()) {
            return false;
        }
        try {
            RuleSet read = parser.read(path);
            rules = read;
            status = new Status(path.toString(), System.currentTimeMillis(), null, 0);
            LOG.info("alert rules reloaded from " + path + ": " + read.rules().size() + " rules, "
                    + read.channels().size() + " channels");
            return true;
        } catch (RuleFileException e) {
            status = new Status(path.toString(), status.loadedAtMs(), e.getMessage(), e.line());
            LOG.warning("alert rules file " + path + " not reloaded, " + e.getMessage() + "; the "
                    + rules.rules().size() + " rules read before stay in force");
            return false;
        }
    }

    /** Notes the file's time stamp and size; whether either changed since the last call. */
    private boolean remember() {
        FileTime time;
        long size;
        try {
            time = Files.getLastModifiedTime(path);
            size = Files.size(path);
        } catch (IOException e) {
            time = null;
            size = -2;
        }
        boolean changed = size != seenSize || (time != null && !time.equals(seenTime));
        seenTime = time;
        seenSize = size;
        return changed;
    }

    public RuleSet rules() {
        return rules;
    }

    public Status status() {
        return status;
    }
}
