package io.argus.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommandLineSpecTest {
    static final class Bad extends Exception {
        Bad(String message) {
            super(message);
        }
    }

    private final List<String> seen = new ArrayList<>();

    private CommandLineSpec<Bad> spec() {
        return CommandLineSpec.<Bad>of("argus-x", "Usage: argus-x [options]\n", Bad::new)
                .option("--port", "N", v -> {
                    if (!v.matches("\\d+")) {
                        throw new Bad("invalid value for --port: '" + v + "'");
                    }
                    seen.add("port=" + v);
                })
                .option("--name", "NAME", v -> seen.add("name=" + v))
                .flag("--quick", () -> seen.add("quick"));
    }

    @Test
    void valuesComeNextOrAfterEqualsInTheOrderGivenAndTheLastCounts() throws Bad {
        assertThat(spec().parse("--port", "1", "--quick", "--name=a=b", "--port=2"))
                .isEqualTo(CommandLineSpec.Request.RUN);
        assertThat(seen).containsExactly("port=1", "quick", "name=a=b", "port=2");
    }

    @Test
    void badCommandLinesAreOneMessageNamingTheFlag() {
        assertBad("unknown option '--nope'", "--nope", "1");
        assertBad("unknown option '--nope'", "--nope=1");
        assertBad("unknown option '-x'", "-x");
        assertBad("--port needs a value", "--port");
        assertBad("--port needs a value", "--port", "--quick");
        assertBad("unexpected argument 'extra'", "extra");
        assertBad("unexpected argument '@file'", "@file");
        assertBad("invalid value for --port: 'abc'", "--port", "abc");
    }

    @Test
    void helpAndCompletionAreAskedForAlike() throws Bad {
        assertThat(spec().parse("--help")).isEqualTo(CommandLineSpec.Request.HELP);
        assertThat(spec().parse("-h")).isEqualTo(CommandLineSpec.Request.HELP);
        assertThat(spec().parse("--completion")).isEqualTo(CommandLineSpec.Request.COMPLETION);
        assertThat(spec().usageText()).startsWith("Usage: argus-x [options]\n").contains("argus-x --completion");
        assertThat(spec().completionScript()).contains("--port").contains("--quick").contains("argus-x");
    }

    @Test
    void optionsTheUsageDoesNotNameAreFound() {
        assertThat(spec().optionsMissingFromUsage()).containsExactly("--port", "--name", "--quick");
        assertThat(CommandLineSpec.<Bad>of("argus-x", "  --port-range R\n  --name N\n", Bad::new)
                .option("--port", "N", v -> { }).option("--name", "N", v -> { }).optionsMissingFromUsage())
                .containsExactly("--port");
    }

    @Test
    void rejectSaysWhatIsWrongInOneLineAndReturnsTwo() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = spec().reject(new PrintStream(err, true, StandardCharsets.UTF_8), "unknown option '--nope'");
        assertThat(status).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo(
                "argus-x: unknown option '--nope'\nTry 'argus-x --help' for the options.\n");
    }

    private void assertBad(String message, String... args) {
        assertThatThrownBy(() -> spec().parse(args)).isInstanceOf(Bad.class).hasMessage(message);
    }
}
