package io.argus.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The options of one command, parsed by picocli, so that every Argus command line behaves alike: {@code --help}
 * (or {@code -h}) prints the command's usage, {@code --completion} a bash completion script; an unknown flag, a
 * flag without its value, or a stray argument is one message naming it, and {@link #USAGE_ERROR} is the exit
 * status for each. A value is taken as the next argument or after {@code =}; given twice, the last one counts.
 *
 * <p>Each option hands its value to a handler as a string: the command converts and checks it, and its own
 * exception, of type {@code E}, says what is wrong with it.
 *
 * @param <E> what the command throws for a bad command line
 */
public final class CommandLineSpec<E extends Exception> {
    /** Exit status for a bad command line. */
    public static final int USAGE_ERROR = 2;

    /** What the command line asks for besides the options. */
    public enum Request { RUN, HELP, COMPLETION }

    /** Takes an option's value. */
    public interface ValueHandler<E extends Exception> {
        void accept(String value) throws E;
    }

    /** Takes a flag that has no value. */
    public interface FlagHandler<E extends Exception> {
        void set() throws E;
    }

    private final String name;
    private final String usage;
    private final Function<String, E> badCommandLine;
    private final CommandSpec spec;
    private final CommandLine commandLine;
    /** The handler's exception behind the parse failure in progress, thrown once picocli lets go. */
    private Exception handlerFailure;

    private CommandLineSpec(String name, String usage, Function<String, E> badCommandLine) {
        this.name = name;
        this.usage = usage;
        this.badCommandLine = badCommandLine;
        this.spec = CommandSpec.create().name(name);
        spec.addOption(OptionSpec.builder("--help", "-h").usageHelp(true).description("show the help and exit")
                .build());
        spec.addOption(OptionSpec.builder("--completion").arity("0").type(boolean.class)
                .description("print a bash completion script and exit").build());
        this.commandLine = new CommandLine(spec);
        commandLine.setExpandAtFiles(false);
        commandLine.setOverwrittenOptionsAllowed(true);
        commandLine.setHelpSectionKeys(List.of("usage"));
        commandLine.getHelpSectionMap().put("usage", help -> usageText());
    }

    /**
     * @param name           the command's name, as a user types it
     * @param usage          the text {@code --help} prints
     * @param badCommandLine the command's exception for a message about a bad command line
     */
    public static <E extends Exception> CommandLineSpec<E> of(String name, String usage,
                                                               Function<String, E> badCommandLine) {
        return new CommandLineSpec<>(name, usage, badCommandLine);
    }

    /** An option with a value, e.g. {@code --port 80} or {@code --port=80}; {@code label} names the value. */
    public CommandLineSpec<E> option(String option, String label, ValueHandler<? extends E> handler) {
        spec.addOption(OptionSpec.builder(option).arity("1").type(String.class).paramLabel(label)
                .setter(new CommandLine.Model.ISetter() {
                    @Override
                    public <T> T set(T value) {
                        if (value != null) { // null: picocli clearing the option before a parse
                            handle(() -> handler.accept((String) value));
                        }
                        return null;
                    }
                }).build());
        return this;
    }

    /** A flag without a value. */
    public CommandLineSpec<E> flag(String option, FlagHandler<? extends E> handler) {
        spec.addOption(OptionSpec.builder(option).arity("0").type(boolean.class)
                .setter(new CommandLine.Model.ISetter() {
                    @Override
                    public <T> T set(T value) {
                        if (Boolean.TRUE.equals(value)) {
                            handle(handler::set);
                        }
                        return null;
                    }
                }).build());
        return this;
    }

    private interface Call {
        void run() throws Exception;
    }

    private void handle(Call call) {
        try {
            call.run();
        } catch (Exception e) {
            handlerFailure = e;
            throw new ParameterException(commandLine, e.getMessage(), e);
        }
    }

    /**
     * Hands each option in {@code args} to its handler, in the order given.
     *
     * @throws E for an unknown option, a missing value, a stray argument, or what a handler refused
     */
    @SuppressWarnings("unchecked")
    public Request parse(String... args) throws E {
        handlerFailure = null;
        CommandLine.ParseResult result;
        try {
            result = commandLine.parseArgs(args);
        } catch (ParameterException e) {
            if (handlerFailure instanceof RuntimeException failure) {
                throw failure;
            }
            if (handlerFailure != null) {
                throw (E) handlerFailure;
            }
            throw badCommandLine.apply(message(e));
        }
        if (result.isUsageHelpRequested()) {
            return Request.HELP;
        }
        return result.hasMatchedOption("--completion") ? Request.COMPLETION : Request.RUN;
    }

    /**
     * Answers {@code --help} (the usage) or {@code --completion} (the script) on {@code out}.
     *
     * @return whether {@code request} was one of them, so that the command has nothing more to do
     */
    public boolean answer(Request request, PrintStream out) {
        switch (request) {
            case HELP -> printUsage(out);
            case COMPLETION -> {
                out.print(completionScript());
                out.flush();
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    /** What picocli found wrong, worded alike for every command. */
    private static String message(ParameterException e) {
        if (e instanceof UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
            String arg = unmatched.getUnmatched().get(0);
            if (arg.startsWith("-")) {
                int eq = arg.indexOf('=');
                return "unknown option '" + (eq > 0 ? arg.substring(0, eq) : arg) + "'";
            }
            return "unexpected argument '" + arg + "'";
        }
        if (e instanceof MissingParameterException missing && !missing.getMissing().isEmpty()
                && missing.getMissing().get(0) instanceof OptionSpec option) {
            return option.longestName() + " needs a value";
        }
        return e.getMessage();
    }

    /** The command's own options that its usage text does not name, so that a test can keep the two in step. */
    public List<String> optionsMissingFromUsage() {
        return spec.options().stream().map(OptionSpec::longestName)
                .filter(option -> !option.equals("--help") && !option.equals("--completion"))
                .filter(option -> !usage.matches("(?s).*" + Pattern.quote(option) + "\\b(?!-).*"))
                .toList();
    }

    /** The usage text, with the lines every command shares. */
    public String usageText() {
        return usageText(name, usage);
    }

    /** {@code usage}, the help of command {@code name}, with the lines every command shares. */
    public static String usageText(String name, String usage) {
        String text = usage.endsWith("\n") ? usage : usage + "\n";
        return text + "\nShell completion: source <(" + name + " --completion), in bash or zsh.\n";
    }

    /** Prints {@link #usageText()}, for {@code --help}. */
    public void printUsage(PrintStream out) {
        out.print(usageText());
        out.flush();
    }

    /** A bash (and zsh) completion script for the command's options. */
    public String completionScript() {
        return AutoComplete.bash(name, commandLine);
    }

    /**
     * Says on {@code err} what is wrong, in one line naming the command, and where the options are; returns
     * {@link #USAGE_ERROR}.
     */
    public int reject(PrintStream err, String message) {
        return reject(err, name, message);
    }

    /** {@link #reject(PrintStream, String)} for command {@code name}. */
    public static int reject(PrintStream err, String name, String message) {
        err.println(name + ": " + message);
        err.println("Try '" + name + " --help' for the options.");
        err.flush();
        return USAGE_ERROR;
    }
}
