package io.argus.perf.load.druid;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A deterministic wikipedia-like edit stream: {@code __time} (one edit every {@value #STEP_MILLIS}
 * ms from {@link #START_MILLIS}), page, user, channel, namespace, added, deleted and delta, as
 * newline-delimited JSON. The same seed gives the same bytes on every machine.
 */
public final class WikipediaData {

    /** 2015-09-12T00:00:00Z, the day of Druid's own wikipedia tutorial data. */
    public static final long START_MILLIS = 1_442_016_000_000L;
    static final long STEP_MILLIS = 4_000;
    static final String[] CHANNELS = {"#en.wikipedia", "#de.wikipedia", "#fr.wikipedia", "#ja.wikipedia",
            "#ru.wikipedia", "#it.wikipedia", "#es.wikipedia", "#vi.wikipedia"};
    static final String[] NAMESPACES = {"Main", "Talk", "User", "Wikipedia", "Template", "Category"};
    static final String[] WORDS = {"River", "Station", "Album", "Battle", "Church", "District", "Film", "Island",
            "Language", "Mountain", "Party", "Railway", "School", "Song", "Species", "Village"};

    private WikipediaData() {
    }

    /** Writes {@code rows} rows to {@code file} (replacing it). */
    public static void write(Path file, int rows, long seed) throws IOException {
        Files.createDirectories(file.getParent());
        SplittableRandom r = new SplittableRandom(seed);
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < rows; i++) {
                w.write(row(r, START_MILLIS + i * STEP_MILLIS));
                w.newLine();
            }
        }
    }

    static String row(SplittableRandom r, long time) {
        // skewed like real edits: most add a little, a few add a lot
        int added = r.nextInt(10) == 0 ? r.nextInt(5_000) : r.nextInt(200);
        int deleted = r.nextInt(4) == 0 ? r.nextInt(300) : 0;
        String page = WORDS[r.nextInt(WORDS.length)] + "_" + r.nextInt(2_000);
        String user = r.nextInt(5) == 0 ? "192.168." + r.nextInt(256) + "." + r.nextInt(256) : "Editor" + r.nextInt(500);
        return String.format(Locale.ROOT,
                "{\"__time\":%d,\"page\":\"%s\",\"user\":\"%s\",\"channel\":\"%s\",\"namespace\":\"%s\","
                        + "\"added\":%d,\"deleted\":%d,\"delta\":%d}",
                time, page, user, CHANNELS[r.nextInt(CHANNELS.length)], NAMESPACES[r.nextInt(NAMESPACES.length)],
                added, deleted, added - deleted);
    }

    /** The native batch (index_parallel) task that ingests {@code fileName} from {@code dir}. */
    static String ingestionTask(String dataSource, Path dir, String fileName) {
        return """
                {"type":"index_parallel","spec":{
                 "ioConfig":{"type":"index_parallel",
                   "inputSource":{"type":"local","baseDir":"%s","filter":"%s"},
                   "inputFormat":{"type":"json"}},
                 "dataSchema":{"dataSource":"%s",
                   "timestampSpec":{"column":"__time","format":"millis"},
                   "dimensionsSpec":{"dimensions":["page","user","channel","namespace",
                     {"type":"long","name":"added"},{"type":"long","name":"deleted"},{"type":"long","name":"delta"}]},
                   "granularitySpec":{"segmentGranularity":"day","queryGranularity":"none","rollup":false}},
                 "tuningConfig":{"type":"index_parallel","maxNumConcurrentSubTasks":1,
                   "partitionsSpec":{"type":"dynamic"}}}}
                """.formatted(dir.toAbsolutePath().toString().replace("\\", "\\\\"), fileName, dataSource);
    }
}
