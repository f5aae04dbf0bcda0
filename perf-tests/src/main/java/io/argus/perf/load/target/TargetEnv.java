package io.argus.perf.load.target;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * What a target needs to plan a launch.
 *
 * @param java          the java executable that runs the target JVMs
 * @param workDir       a fresh directory for this launch (data, logs of the target's own)
 * @param agentOptions  the scenario's JVM options for a service name, for JVMs the target forks
 *                      itself (Druid's peons); empty for the baseline
 * @param extraOptions  the user's extra JVM options (--jvm-opt), for the same JVMs
 * @param load          true for a launch that the load phase measures (Druid ingests its data
 *                      only then), false for a start-up-only launch
 */
public record TargetEnv(Path java, Path workDir, Function<String, List<String>> agentOptions,
                        List<String> extraOptions, boolean load) {
}
