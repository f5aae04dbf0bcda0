package io.argus.perf.moobench.report;

import io.argus.perf.moobench.MooResults;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.argus.perf.moobench.report.MooFormat.f1;
import static io.argus.perf.moobench.report.MooFormat.humanNs;

/** timeline.svg: the binned mean response time of one run per configuration. */
final class TimelineChart {

    private TimelineChart() {
    }

    /** One panel per configuration: the binned mean response time of its first successful run. */
    static String svg(MooResults r) {
        List<MooResults.ConfigResult> configs = new ArrayList<>();
        for (MooResults.ConfigResult c : r.configs) {
            if (firstOk(c) != null) {
                configs.add(c);
            }
        }
        int width = 900;
        int panel = 150;
        int left = 80;
        int right = 20;
        int top = 40;
        int gap = 30;
        int height = top + Math.max(1, configs.size()) * (panel + gap) + 30;
        StringBuilder svg = Charts.start(width, height, "MooBench time series: mean response time per bin (ns, log scale), one run per configuration");
        if (configs.isEmpty()) {
            Charts.text(svg, left, top + 20, "no successful run", "start", 12);
        }
        for (int p = 0; p < configs.size(); p++) {
            MooResults.ConfigResult c = configs.get(p);
            MooResults.RunResult run = firstOk(c);
            double[] y = run.binMeansNs;
            int y0 = top + p * (panel + gap);
            int plotW = width - left - right;
            double lo = Double.MAX_VALUE;
            double hi = 0;
            for (double v : y) {
                if (v > 0) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
            if (hi <= 0) {
                continue;
            }
            double logLo = Math.floor(Math.log10(lo));
            double logHi = Math.max(logLo + 1, Math.ceil(Math.log10(hi)));
            // the discarded warm-up half
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#e6e6e6\"/>%n",
                    left, y0, plotW / 2.0, panel));
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>%n",
                    left, y0, plotW, panel));
            for (double e = logLo; e <= logHi; e++) {
                double yy = y0 + panel - (e - logLo) / (logHi - logLo) * panel;
                svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ccc\"/>%n",
                        left, yy, left + plotW, yy));
                Charts.text(svg, left - 6, yy + 4, humanNs(Math.pow(10, e)), "end", 10);
            }
            StringBuilder points = new StringBuilder();
            for (int i = 0; i < y.length; i++) {
                if (y[i] <= 0) {
                    continue;
                }
                double xx = left + (i + 0.5) * plotW / y.length;
                double yy = y0 + panel - (Math.log10(y[i]) - logLo) / (logHi - logLo) * panel;
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", xx, yy));
            }
            svg.append("<polyline fill=\"none\" stroke=\"").append(Charts.COLORS[p % Charts.COLORS.length])
                    .append("\" stroke-width=\"1\" points=\"").append(points.toString().trim()).append("\"/>\n");
            Charts.text(svg, left + 6, y0 + 14, "warm-up (discarded)", "start", 10);
            Charts.text(svg, left + plotW - 6, y0 + 14, String.format(Locale.ROOT, "%s, run %d: measured mean %s ns, median %s ns",
                    c.name, run.run, f1(run.meanNs), f1(run.medianNs)), "end", 12);
            Charts.text(svg, left, y0 + panel + 14, "call 0", "start", 10);
            Charts.text(svg, left + plotW / 2.0, y0 + panel + 14, String.format(Locale.ROOT, "call %,d: measured half starts", run.calls / 2),
                    "middle", 10);
            Charts.text(svg, left + plotW, y0 + panel + 14, String.format(Locale.ROOT, "call %,d", run.calls), "end", 10);
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static MooResults.RunResult firstOk(MooResults.ConfigResult c) {
        for (MooResults.RunResult run : c.runs) {
            if (run.ok && run.binMeansNs != null) {
                return run;
            }
        }
        return null;
    }
}
