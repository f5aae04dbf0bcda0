package io.argus.perf.load.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.argus.perf.load.model.RunResults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes results.json, report.md and report.html into the report folder. */
public final class ReportWriter {

    public static final String JSON = "results.json";
    public static final String MARKDOWN = "report.md";
    public static final String HTML = "report.html";

    private ReportWriter() {
    }

    public static ObjectMapper mapper() {
        ObjectMapper m = new ObjectMapper();
        m.enable(SerializationFeature.INDENT_OUTPUT);
        // latency arrays stay on one line each
        m.setDefaultPrettyPrinter(new com.fasterxml.jackson.core.util.DefaultPrettyPrinter()
                .withArrayIndenter(com.fasterxml.jackson.core.util.DefaultPrettyPrinter.FixedSpaceIndenter.instance));
        m.configure(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN, true);
        m.configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
        return m;
    }

    public static void write(RunResults results, Path dir) throws IOException {
        Files.createDirectories(dir);
        mapper().writeValue(dir.resolve(JSON).toFile(), results);
        String md = MarkdownReport.render(results);
        Files.writeString(dir.resolve(MARKDOWN), md, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(HTML), HtmlReport.render(results, md), StandardCharsets.UTF_8);
    }

    public static RunResults read(Path json) throws IOException {
        return mapper().readValue(json.toFile(), RunResults.class);
    }
}
