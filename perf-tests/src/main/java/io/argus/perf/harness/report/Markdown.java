package io.argus.perf.harness.report;

/** A markdown document being written: lines, sections, bullets and table rows. */
public final class Markdown {

    private final StringBuilder b = new StringBuilder();

    public Markdown line(String s) {
        b.append(s).append('\n');
        return this;
    }

    /** A value as {@link StringBuilder#append(Object)} writes it, without a line end. */
    public Markdown append(Object value) {
        b.append(value);
        return this;
    }

    public Markdown section(String name) {
        line("## " + name);
        return line("");
    }

    public Markdown bullet(String text) {
        return line("- " + text);
    }

    /** A table row; a null cell shows as {@link Fmt#NONE}. */
    public Markdown row(String... cells) {
        b.append('|');
        for (String c : cells) {
            b.append(' ').append(c == null ? Fmt.NONE : c).append(" |");
        }
        b.append('\n');
        return this;
    }

    /** The separator under a header of {@code n} left-aligned columns. */
    public Markdown sep(int n) {
        b.append('|');
        b.append("---|".repeat(n));
        b.append('\n');
        return this;
    }

    @Override
    public String toString() {
        return b.toString();
    }
}
