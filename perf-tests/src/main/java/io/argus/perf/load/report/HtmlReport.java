package io.argus.perf.load.report;

import io.argus.perf.harness.report.Svg;
import io.argus.perf.harness.stats.Stats;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.Round;
import io.argus.perf.load.model.RunResults.ScenarioResult;
import io.argus.perf.load.stats.Analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * report.html: the charts (inline SVG, no script and no CDN) followed by the whole of report.md
 * rendered to HTML, so that both files always hold the same tables.
 */
public final class HtmlReport {

    /** The ids of the charts, in page order. */
    public static final List<String> CHARTS = List.of("chart-startup", "chart-latency", "chart-qps-rounds",
            "chart-cpu");

    private HtmlReport() {
    }

    public static String render(RunResults r, String markdown) {
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<title>Argus overhead report</title>\n<style>\n")
                .append("body{font-family:sans-serif;max-width:1250px;margin:24px auto;padding:0 16px;color:#222}\n")
                .append("table{border-collapse:collapse;margin:8px 0 16px;font-size:13px}\n")
                .append("th,td{border:1px solid #ccc;padding:3px 7px;text-align:left}th{background:#f3f3f3}\n")
                .append("tr:nth-child(even) td{background:#fafafa}code,pre{background:#f5f5f5;font-size:12px}\n")
                .append("pre{padding:6px;overflow-x:auto}svg{display:block;margin:12px 0;border:1px solid #eee}\n")
                .append(".charts h3{margin-top:24px}\n</style>\n</head>\n<body>\n");
        // title and headline first, then the charts, then the rest of report.md
        String body = markdownToHtml(markdown);
        int method = body.indexOf("<h2 id=\"method\">");
        b.append(method < 0 ? body : body.substring(0, method));
        b.append("<section class=\"charts\" id=\"charts\">\n<h2>Charts</h2>\n");
        b.append("<h3>Startup per scenario</h3>\n").append(startupChart(r));
        b.append("<h3>Latency percentiles per scenario</h3>\n").append(latencyChart(r));
        b.append("<h3>QPS per round</h3>\n").append(qpsChart(r));
        b.append("<h3>CPU time per request</h3>\n").append(cpuChart(r));
        b.append("</section>\n");
        if (method >= 0) {
            b.append(body.substring(method));
        }
        b.append("</body>\n</html>\n");
        return b.toString();
    }

    static String startupChart(RunResults r) {
        List<String> cats = new ArrayList<>();
        double[] ready = new double[r.scenarios.size()];
        double[] observed = new double[r.scenarios.size()];
        List<double[]> points = new ArrayList<>();
        for (int i = 0; i < r.scenarios.size(); i++) {
            ScenarioResult s = r.scenarios.get(i);
            cats.add(s.name);
            double[] x = Analysis.samples(s, "startupMs");
            double[] o = Analysis.samples(s, "observedMs");
            ready[i] = x.length == 0 ? Double.NaN : Stats.median(x);
            observed[i] = o.length == 0 ? Double.NaN : Stats.median(o);
            points.add(o.length == 0 ? x : o);
        }
        return Svg.bars("chart-startup", "Startup, sum over processes: ready (first answer) and observed (first request"
                        + " whose trace reached the collector); bars: medians; dots: every launch's observed time, or ready"
                        + " where nothing is observed", "ms", cats,
                List.of(new Svg.Series("ready", ready), new Svg.Series("observed", observed)), points);
    }

    static String latencyChart(RunResults r) {
        List<String> cats = new ArrayList<>();
        int n = r.scenarios.size();
        double[] avg = new double[n];
        double[] p95 = new double[n];
        double[] p99 = new double[n];
        double[] g95 = new double[n];
        double[] g99 = new double[n];
        for (int i = 0; i < n; i++) {
            ScenarioResult s = r.scenarios.get(i);
            cats.add(s.name);
            avg[i] = median(Analysis.samples(s, "avgMs"));
            p95[i] = median(Analysis.samples(s, "p95Ms"));
            p99[i] = median(Analysis.samples(s, "p99Ms"));
            g95[i] = s.gatling == null || s.gatling.source == null ? Double.NaN : s.gatling.p95Ms;
            g99[i] = s.gatling == null || s.gatling.source == null ? Double.NaN : s.gatling.p99Ms;
        }
        return Svg.bars("chart-latency", "Latency per scenario (closed loop: medians over measured rounds; Gatling: whole run)",
                "ms", cats, List.of(new Svg.Series("closed-loop avg", avg), new Svg.Series("closed-loop P95", p95),
                        new Svg.Series("closed-loop P99", p99), new Svg.Series("Gatling P95", g95),
                        new Svg.Series("Gatling P99", g99)), null);
    }

    static String qpsChart(RunResults r) {
        List<Svg.Series> series = new ArrayList<>();
        for (ScenarioResult s : r.scenarios) {
            if (s.closedLoop == null) {
                series.add(new Svg.Series(s.name, new double[0]));
                continue;
            }
            List<Round> rounds = s.closedLoop.rounds;
            double[] v = new double[rounds.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = rounds.get(i).qps;
            }
            series.add(new Svg.Series(s.name, v));
        }
        return Svg.lines("chart-qps-rounds", "Closed-loop QPS per round (requests / sum of latencies)", "req/s", "round",
                series, r.settings.discardRounds);
    }

    static String cpuChart(RunResults r) {
        List<String> cats = new ArrayList<>();
        double[] v = new double[r.scenarios.size()];
        double[] g = new double[r.scenarios.size()];
        List<double[]> points = new ArrayList<>();
        for (int i = 0; i < r.scenarios.size(); i++) {
            ScenarioResult s = r.scenarios.get(i);
            cats.add(s.name);
            double[] rounds = Analysis.samples(s, "cpuUsPerRequest");
            v[i] = median(rounds);
            Double gatling = Analysis.single(s, "gatlingCpuUsPerRequest");
            g[i] = gatling == null ? Double.NaN : gatling;
            points.add(rounds);
        }
        return Svg.bars("chart-cpu", "CPU time per request, all target processes (bars: closed loop, median over the"
                        + " measured rounds, and Gatling's whole run; dots: every measured round)", "µs", cats,
                List.of(new Svg.Series("closed loop", v), new Svg.Series("Gatling", g)), points);
    }

    private static double median(double[] x) {
        return x.length == 0 ? Double.NaN : Stats.median(x);
    }

    // ------------------------------------------------------------------ markdown (the subset report.md uses)

    private static final Pattern LINK = Pattern.compile("\\[([^\\]]+)]\\(([^)]+)\\)");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");
    private static final Pattern BOLD = Pattern.compile("\\*\\*([^*]+)\\*\\*");

    /** Headings, tables, bullet lists, fenced code, paragraphs; inline code, bold and links. */
    static String markdownToHtml(String md) {
        StringBuilder out = new StringBuilder();
        String[] lines = md.split("\n", -1);
        int i = 0;
        boolean inList = false;
        while (i < lines.length) {
            String line = lines[i];
            String t = line.trim();
            if (!t.startsWith("- ") && inList && !t.startsWith("```") && !(t.isEmpty() && nextIsListOrCode(lines, i))) {
                out.append("</ul>\n");
                inList = false;
            }
            if (t.startsWith("```")) {
                StringBuilder code = new StringBuilder();
                i++;
                while (i < lines.length && !lines[i].trim().startsWith("```")) {
                    code.append(Svg.esc(lines[i].trim())).append('\n');
                    i++;
                }
                out.append("<pre><code>").append(code).append("</code></pre>\n");
                i++;
                continue;
            }
            if (t.startsWith("#")) {
                int level = 0;
                while (level < t.length() && t.charAt(level) == '#') {
                    level++;
                }
                String text = t.substring(level).trim();
                out.append("<h").append(level).append(" id=\"").append(slug(text)).append("\">").append(inline(text))
                        .append("</h").append(level).append(">\n");
                i++;
                continue;
            }
            if (t.startsWith("|")) {
                out.append("<table>\n");
                boolean header = true;
                while (i < lines.length && lines[i].trim().startsWith("|")) {
                    String row = lines[i].trim();
                    if (row.matches("\\|(\\s*-+\\s*\\|)+")) {
                        i++;
                        continue;
                    }
                    List<String> cells = splitRow(row);
                    out.append("<tr>");
                    for (String c : cells) {
                        out.append(header ? "<th>" : "<td>").append(inline(c)).append(header ? "</th>" : "</td>");
                    }
                    out.append("</tr>\n");
                    header = false;
                    i++;
                }
                out.append("</table>\n");
                continue;
            }
            if (t.startsWith("- ")) {
                if (!inList) {
                    out.append("<ul>\n");
                    inList = true;
                }
                out.append("<li>").append(inline(t.substring(2))).append("</li>\n");
                i++;
                continue;
            }
            if (!t.isEmpty()) {
                out.append("<p>").append(inline(t)).append("</p>\n");
            }
            i++;
        }
        if (inList) {
            out.append("</ul>\n");
        }
        return out.toString();
    }

    private static boolean nextIsListOrCode(String[] lines, int i) {
        for (int j = i + 1; j < lines.length; j++) {
            String t = lines[j].trim();
            if (!t.isEmpty()) {
                return t.startsWith("- ") || t.startsWith("```");
            }
        }
        return false;
    }

    private static List<String> splitRow(String row) {
        List<String> cells = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (int k = 1; k < row.length(); k++) {
            char c = row.charAt(k);
            if (c == '\\' && k + 1 < row.length() && row.charAt(k + 1) == '|') {
                cur.append('|');
                k++;
            } else if (c == '|') {
                cells.add(cur.toString().trim());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        return cells;
    }

    static String inline(String text) {
        // code spans first, protected from the other rules
        List<String> codes = new ArrayList<>();
        Matcher cm = CODE.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (cm.find()) {
            codes.add("<code>" + Svg.esc(cm.group(1)) + "</code>");
            cm.appendReplacement(sb, Matcher.quoteReplacement("\u0000" + (codes.size() - 1) + "\u0000"));
        }
        cm.appendTail(sb);
        String s = Svg.esc(sb.toString());
        s = LINK.matcher(s).replaceAll("<a href=\"$2\">$1</a>");
        s = BOLD.matcher(s).replaceAll("<strong>$1</strong>");
        for (int k = 0; k < codes.size(); k++) {
            s = s.replace("\u0000" + k + "\u0000", codes.get(k));
        }
        return s;
    }

    static String slug(String text) {
        return text.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
    }

}
