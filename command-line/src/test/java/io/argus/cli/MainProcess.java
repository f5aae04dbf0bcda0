package io.argus.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A command's main class run in a child JVM on the test's class path, for its exit status and its stderr. */
public record MainProcess(int status, List<String> stderr) {

    /** How a command ends on a bad command line: exit status 2, the message naming the command, and where to look. */
    public static MainProcess usageError(String command, String message) {
        return new MainProcess(CommandLineSpec.USAGE_ERROR,
                List.of(command + ": " + message, "Try '" + command + " --help' for the options."));
    }

    /** Runs {@code main} with {@code args} and waits at most a minute for it to end. */
    public static MainProcess run(Class<?> main, String... args) throws IOException, InterruptedException {
        Path err = Files.createTempFile("command-line", ".err");
        try {
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), main.getName()));
            command.addAll(List.of(args));
            Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(err.toFile()).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(main.getName() + " did not end within a minute");
            }
            return new MainProcess(p.exitValue(), Files.readAllLines(err));
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
