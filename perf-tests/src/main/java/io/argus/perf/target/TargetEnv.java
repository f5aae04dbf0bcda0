package io.argus.perf.target;

import java.nio.file.Path;

/**
 * What a target needs to plan a launch.
 *
 * @param java    the java executable that runs the target JVMs
 * @param workDir a fresh directory for this launch (data, logs of the target's own)
 */
public record TargetEnv(Path java, Path workDir) {
}
