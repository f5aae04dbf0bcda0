package io.argus.fleet;

import io.argus.cluster.process.ManagedProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A JVM of the fleet (collector or service), started and awaited until it prints its ready line. */
final class FleetProcess {
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    final ManagedProcess process;
    /** The ready line's groups. */
    final List<String> ready;

    private FleetProcess(ManagedProcess process, List<String> ready) {
        this.process = process;
        this.ready = ready;
    }

    /** Starts {@code java jvmArgs -cp classPath main args}; waits for a line matching {@code readyLine}. */
    static FleetProcess start(String name, Path logDir, List<String> jvmArgs, String classPath, String main,
                              List<String> args, Pattern readyLine) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(main);
        cmd.addAll(args);
        ManagedProcess p = ManagedProcess.startIsolated(name, cmd, null, Map.of(), logDir.resolve(name + ".log"),
                Map.of("ready", readyLine));
        String line = p.awaitMatch("ready", START_TIMEOUT.toMillis());
        if (line == null) {
            p.stop(5_000);
            throw new IOException(name + " did not start within " + START_TIMEOUT.toMinutes() + " min; see "
                    + p.log() + ":\n" + p.describeTail(20));
        }
        Matcher m = readyLine.matcher(line);
        m.find();
        List<String> groups = new ArrayList<>();
        for (int i = 1; i <= m.groupCount(); i++) {
            groups.add(m.group(i));
        }
        return new FleetProcess(p, groups);
    }

    void stop() {
        process.stop(10_000);
    }
}
