package io.argus.perf.moobench.report;

import io.argus.perf.moobench.MooResults;
import io.argus.perf.moobench.Overheads;

import java.util.List;
import java.util.Locale;

import static io.argus.perf.moobench.report.MooFormat.humanNs;

/** depth.svg: overhead per trace against recursion depth, with each configuration's least-squares line. */
final class DepthChart {

    private DepthChart() {
    }

    /** Overhead per trace against depth, with each configuration's least-squares line. */
    static String svg(MooResults r) {
        List<Overheads.DepthCurve> curves = Overheads.depthCurves(r.depthSeries);
        int width = 900;
        int height = 520;
        int left = 90;
        int right = 260;
        int top = 40;
        int bottom = 60;
        int plotW = width - left - right;
        int plotH = height - top - bottom;
        double maxX = 1;
        double maxY = 1;
        double minY = 0;
        for (Overheads.DepthCurve c : curves) {
            for (int i = 0; i < c.depths.size(); i++) {
                maxX = Math.max(maxX, c.depths.get(i));
                maxY = Math.max(maxY, c.overheadTrimmedNs.get(i));
                minY = Math.min(minY, c.overheadTrimmedNs.get(i));
            }
        }
        double yStep = Charts.niceStep((maxY - minY) / 6);
        maxY = Math.ceil(maxY / yStep) * yStep;
        minY = Math.floor(minY / yStep) * yStep;
        double xStep = Charts.niceStep(maxX / 8);
        maxX = Math.ceil(maxX / xStep) * xStep;
        StringBuilder svg = Charts.start(width, height,
                "Overhead per trace against recursion depth (trimmed mean minus T's, without the slowest 0.1% of calls)");
        double ymin = minY;
        double ymax = maxY;
        double xmax = maxX;
        java.util.function.DoubleUnaryOperator sx = x -> left + x / xmax * plotW;
        java.util.function.DoubleUnaryOperator sy = y -> top + plotH - (y - ymin) / (ymax - ymin) * plotH;
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>%n",
                left, top, plotW, plotH));
        for (double y = minY; y <= maxY + yStep / 2; y += yStep) {
            double yy = sy.applyAsDouble(y);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
                    left, yy, left + plotW, yy));
            Charts.text(svg, left - 6, yy + 4, humanNs(y), "end", 10);
        }
        for (double x = 0; x <= maxX + xStep / 2; x += xStep) {
            double xx = sx.applyAsDouble(x);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>%n",
                    xx, top, xx, top + plotH));
            Charts.text(svg, xx, top + plotH + 16, String.format(Locale.ROOT, "%.0f", x), "middle", 10);
        }
        Charts.text(svg, left + plotW / 2.0, top + plotH + 40, "recursion depth (instrumented calls per trace)", "middle", 12);
        for (int i = 0; i < curves.size(); i++) {
            Overheads.DepthCurve c = curves.get(i);
            String color = Charts.COLORS[(i + 1) % Charts.COLORS.length];
            if (c.trimmedFit != null) {
                svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\"5,3\"/>%n",
                        sx.applyAsDouble(0), sy.applyAsDouble(clamp(c.trimmedFit.at(0), ymin, ymax)), sx.applyAsDouble(xmax),
                        sy.applyAsDouble(clamp(c.trimmedFit.at(xmax), ymin, ymax)), color));
            }
            StringBuilder pts = new StringBuilder();
            for (int j = 0; j < c.depths.size(); j++) {
                double xx = sx.applyAsDouble(c.depths.get(j));
                double yy = sy.applyAsDouble(c.overheadTrimmedNs.get(j));
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>%n", xx, yy, color));
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", xx, yy));
            }
            svg.append("<polyline fill=\"none\" stroke=\"").append(color).append("\" stroke-width=\"1.5\" points=\"")
                    .append(pts.toString().trim()).append("\"/>\n");
            int ly = top + 10 + i * 40;
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>%n",
                    left + plotW + 20, ly, color));
            Charts.text(svg, left + plotW + 38, ly + 10, c.config, "start", 12);
            if (c.trimmedFit != null) {
                Charts.text(svg, left + plotW + 38, ly + 26, String.format(Locale.ROOT, "%.1f ns/call, R² = %.4f", c.trimmedFit.slope,
                        c.trimmedFit.r2), "start", 11);
            }
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static double clamp(double v, double lo, double hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}
