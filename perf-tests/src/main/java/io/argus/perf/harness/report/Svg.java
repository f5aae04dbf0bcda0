package io.argus.perf.harness.report;

import java.util.List;
import java.util.Locale;

/** Small self-contained SVG charts (no script, no external resources). */
public final class Svg {

    public static final String[] PALETTE = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1", "#edc948",
            "#9c755f", "#ff9da7", "#bab0ac"};

    private static final int W = 900;
    private static final int H = 360;
    private static final int LEFT = 80;
    private static final int RIGHT = 170;
    private static final int TOP = 40;
    private static final int BOTTOM = 60;

    /** A named series of values (NaN for none). */
    public record Series(String name, double[] values) {
    }

    private Svg() {
    }

    /**
     * Bars for categories, one bar per series inside each category group; optional points (one
     * array per category) drawn over the first series' bar as dots.
     */
    public static String bars(String id, String title, String unit, List<String> categories, List<Series> series,
                       List<double[]> points) {
        double max = 0;
        for (Series s : series) {
            for (double v : s.values()) {
                if (Double.isFinite(v)) {
                    max = Math.max(max, v);
                }
            }
        }
        if (points != null) {
            for (double[] p : points) {
                for (double v : p) {
                    if (Double.isFinite(v)) {
                        max = Math.max(max, v);
                    }
                }
            }
        }
        double[] ticks = ticks(max);
        double top = ticks[ticks.length - 1];
        StringBuilder b = open(id, title);
        axes(b, ticks, top, unit);
        int plotW = W - LEFT - RIGHT;
        int plotH = H - TOP - BOTTOM;
        int n = Math.max(1, categories.size());
        double groupW = plotW / (double) n;
        double barW = groupW * 0.8 / Math.max(1, series.size());
        for (int c = 0; c < categories.size(); c++) {
            double gx = LEFT + c * groupW + groupW * 0.1;
            for (int s = 0; s < series.size(); s++) {
                double v = c < series.get(s).values().length ? series.get(s).values()[c] : Double.NaN;
                if (!Double.isFinite(v)) {
                    continue;
                }
                double h = v / top * plotH;
                double x = gx + s * barW;
                String color = series.size() == 1 ? PALETTE[c % PALETTE.length] : PALETTE[s % PALETTE.length];
                b.append(String.format(Locale.ROOT,
                        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" opacity=\"0.85\">"
                                + "<title>%s %s: %s %s</title></rect>\n",
                        x, TOP + plotH - h, barW * 0.92, h, color, esc(categories.get(c)), esc(series.get(s).name()),
                        label(v), esc(unit)));
                if (series.size() <= 3) {
                    b.append(String.format(Locale.ROOT,
                            "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"middle\" fill=\"#333\">%s</text>\n",
                            x + barW * 0.46, TOP + plotH - h - 4, label(v)));
                }
            }
            if (points != null && c < points.size()) {
                double x = gx + barW * 0.46;
                double[] p = points.get(c);
                for (int i = 0; i < p.length; i++) {
                    if (!Double.isFinite(p[i])) {
                        continue;
                    }
                    double jitter = (i - (p.length - 1) / 2.0) * Math.min(6, barW / Math.max(2, p.length));
                    b.append(String.format(Locale.ROOT,
                            "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#222\" fill-opacity=\"0.7\">"
                                    + "<title>launch %d: %s %s</title></circle>\n",
                            x + jitter, TOP + plotH - p[i] / top * plotH, i + 1, label(p[i]), esc(unit)));
                }
            }
            b.append(String.format(Locale.ROOT,
                    "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%s</text>\n",
                    LEFT + c * groupW + groupW / 2, TOP + plotH + 18, esc(categories.get(c))));
        }
        if (series.size() > 1) {
            legend(b, series.stream().map(Series::name).toList(), false);
        }
        return close(b);
    }

    /** One line per series over x = 1..n; the first {@code shadeUntil} x positions are shaded (discarded). */
    public static String lines(String id, String title, String unit, String xLabel, List<Series> series, int shadeUntil) {
        double max = 0;
        int n = 0;
        for (Series s : series) {
            n = Math.max(n, s.values().length);
            for (double v : s.values()) {
                if (Double.isFinite(v)) {
                    max = Math.max(max, v);
                }
            }
        }
        double[] ticks = ticks(max);
        double top = ticks[ticks.length - 1];
        StringBuilder b = open(id, title);
        int plotW = W - LEFT - RIGHT;
        int plotH = H - TOP - BOTTOM;
        double step = n <= 1 ? 0 : plotW / (double) (n - 1);
        if (shadeUntil > 0 && n > 1) {
            double x1 = LEFT + Math.min(n - 1, shadeUntil - 1 + 0.5) * step;
            b.append(String.format(Locale.ROOT,
                    "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#eee\"/>"
                            + "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#777\">discarded (warm-up)</text>\n",
                    LEFT, TOP, x1 - LEFT, plotH, LEFT + 4, TOP + 14));
        }
        axes(b, ticks, top, unit);
        for (int i = 0; i < n; i++) {
            double x = LEFT + i * step + (n == 1 ? plotW / 2.0 : 0);
            if (n <= 30 || i % 5 == 4 || i == 0) {
                b.append(String.format(Locale.ROOT,
                        "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%d</text>\n",
                        x, TOP + plotH + 16, i + 1));
            }
        }
        b.append(String.format(Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%s</text>\n",
                LEFT + plotW / 2, TOP + plotH + 36, esc(xLabel)));
        for (int s = 0; s < series.size(); s++) {
            String color = PALETTE[s % PALETTE.length];
            StringBuilder path = new StringBuilder();
            double[] v = series.get(s).values();
            for (int i = 0; i < v.length; i++) {
                if (!Double.isFinite(v[i])) {
                    continue;
                }
                double x = LEFT + i * step + (n == 1 ? plotW / 2.0 : 0);
                double y = TOP + plotH - v[i] / top * plotH;
                path.append(path.length() == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", x, y));
                b.append(String.format(Locale.ROOT,
                        "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s round %d: %s %s</title></circle>\n",
                        x, y, color, esc(series.get(s).name()), i + 1, label(v[i]), esc(unit)));
            }
            if (path.length() > 0) {
                b.append("<path d=\"").append(path).append("\" fill=\"none\" stroke=\"").append(color)
                        .append("\" stroke-width=\"2\"/>\n");
            }
        }
        legend(b, series.stream().map(Series::name).toList(), true);
        return close(b);
    }

    private static StringBuilder open(String id, String title) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT,
                "<svg id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
                        + "font-family=\"sans-serif\" role=\"img\" aria-label=\"%s\">\n",
                esc(id), W, H, W, H, esc(title)));
        b.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        b.append(String.format(Locale.ROOT,
                "<text x=\"%d\" y=\"24\" font-size=\"16\" font-weight=\"bold\">%s</text>\n", LEFT, esc(title)));
        return b;
    }

    private static String close(StringBuilder b) {
        return b.append("</svg>\n").toString();
    }

    private static void axes(StringBuilder b, double[] ticks, double top, String unit) {
        int plotW = W - LEFT - RIGHT;
        int plotH = H - TOP - BOTTOM;
        for (double t : ticks) {
            double y = TOP + plotH - t / top * plotH;
            b.append(String.format(Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                            + "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>\n",
                    LEFT, y, LEFT + plotW, y, LEFT - 6, y + 4, label(t)));
        }
        b.append(String.format(Locale.ROOT,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>"
                        + "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n",
                LEFT, TOP, LEFT, TOP + plotH, LEFT, TOP + plotH, LEFT + plotW, TOP + plotH));
        b.append(String.format(Locale.ROOT,
                "<text x=\"16\" y=\"%d\" font-size=\"12\" transform=\"rotate(-90 16 %d)\" text-anchor=\"middle\">%s</text>\n",
                TOP + plotH / 2, TOP + plotH / 2, esc(unit)));
    }

    private static void legend(StringBuilder b, List<String> names, boolean lines) {
        int x = W - RIGHT + 16;
        for (int i = 0; i < names.size(); i++) {
            int y = TOP + 10 + i * 20;
            String color = PALETTE[i % PALETTE.length];
            if (lines) {
                b.append(String.format(Locale.ROOT,
                        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"/>", x, y, x + 18,
                        y, color));
            } else {
                b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"12\" fill=\"%s\"/>",
                        x, y - 8, color));
            }
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>\n", x + 24, y + 4,
                    esc(names.get(i))));
        }
    }

    /** 0 and 4–6 round ticks covering max. */
    public static double[] ticks(double max) {
        if (!(max > 0)) {
            return new double[]{0, 1};
        }
        double raw = max * 1.1 / 5;
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = mag;
        for (double m : new double[]{1, 2, 2.5, 5, 10}) {
            if (m * mag >= raw) {
                step = m * mag;
                break;
            }
        }
        int count = (int) Math.ceil(max * 1.05 / step);
        double[] t = new double[count + 1];
        for (int i = 0; i <= count; i++) {
            t[i] = i * step;
        }
        return t;
    }

    public static String label(double v) {
        double a = Math.abs(v);
        if (a == 0) {
            return "0";
        }
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    public static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
