package io.argus.perf.moobench.report;

import io.argus.perf.harness.report.Svg;

import java.util.Locale;

/** What the two charts share: the colours, the document's start, text and axis steps. */
final class Charts {

    private Charts() {
    }

    static final String[] COLORS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2"};

    static double niceStep(double raw) {
        if (raw <= 0 || Double.isNaN(raw)) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        double m = raw / p;
        return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
    }

    static StringBuilder start(int width, int height, String title) {
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                + " font-family=\"sans-serif\">%n", width, height, width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        text(svg, width / 2.0, 22, title, "middle", 14);
        return svg;
    }

    static void text(StringBuilder svg, double x, double y, String s, String anchor, int size) {
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">%s</text>%n",
                x, y, anchor, size, Svg.esc(s)));
    }
}
