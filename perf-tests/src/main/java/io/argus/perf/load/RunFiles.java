package io.argus.perf.load;

import io.argus.perf.floor.TransformerFloorJar;

import java.nio.file.Path;

/**
 * Files a run makes for its launches, in its output folder.
 *
 * @param classCacheDir         the class-cache folder the run's Argus launches share
 *                              ({@code argus.startup.classCacheDir}), so that each after the first is a restart
 *                              whatever folder the target gives as {@code java.io.tmpdir} (Druid: a fresh one per
 *                              launch); null for the agent's default
 * @param transformerFloorAgent the {@code transformer-floor} scenario's agent jar ({@link TransformerFloorJar});
 *                              null when the run has none
 */
public record RunFiles(Path classCacheDir, Path transformerFloorAgent) {

    /** Neither: the agent's default class cache, and no floor agent. */
    public static final RunFiles NONE = new RunFiles(null, null);

    /** The files of a run whose output folder is {@code out}. */
    public static RunFiles in(Path out) {
        return new RunFiles(out.resolve("class-cache"), out.resolve(TransformerFloorJar.FILE_NAME));
    }
}
