package io.argus.perf.load.target;

import io.argus.perf.harness.http.RequestSpec;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One JVM of a target. The command is {@code java <jvmOptions> <scenario options, if instrumented>
 * <extra options> -cp <classPath> <mainAndArgs>}.
 *
 * @param service        the service name (the agents are told this name)
 * @param jvmOptions     the target's own JVM options (heap, module flags), the same in every scenario
 * @param classPath      the class path
 * @param mainAndArgs    main class and its arguments
 * @param readiness      polled from spawn until it answers as expected
 * @param startedLine    the application's 'Started' log line; group 1 is its value in ms
 * @param instrumented   whether the scenario's agent goes on this process
 * @param startupTimeout how long readiness may take
 * @param env            extra environment variables
 */
public record ProcessSpec(String service, List<String> jvmOptions, String classPath, List<String> mainAndArgs,
                          RequestSpec readiness, Pattern startedLine, boolean instrumented,
                          Duration startupTimeout, Map<String, String> env) {
}
