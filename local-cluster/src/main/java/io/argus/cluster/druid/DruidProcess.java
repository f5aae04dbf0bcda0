package io.argus.cluster.druid;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * One JVM of a Druid cluster, as {@link DruidProcesses} defines it.
 *
 * @param name        the name agents and reports give it ({@code coordinator-overlord}, {@code broker}, ...,
 *                    {@code zookeeper})
 * @param druid       a Druid process (false for ZooKeeper, which only runs from Druid's jars)
 * @param jvmOptions  heap, module flags and the rest, before the class path
 * @param classPath   its conf folders, then Druid's jars
 * @param mainAndArgs the main class and its arguments
 * @param readiness   answers 200 once the process serves
 */
public record DruidProcess(String name, boolean druid, List<String> jvmOptions, String classPath,
                           List<String> mainAndArgs, URI readiness) {

    public DruidProcess {
        jvmOptions = List.copyOf(jvmOptions);
        mainAndArgs = List.copyOf(mainAndArgs);
    }

    /** {@code java <jvmOptions> -cp <classPath> <mainAndArgs>}. */
    public List<String> command(String java) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.addAll(mainAndArgs);
        return cmd;
    }
}
