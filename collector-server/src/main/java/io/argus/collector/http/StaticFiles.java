package io.argus.collector.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

/** The web UI's files, read from the class path once at start and served from memory. */
final class StaticFiles {
    static final String DIR = "/io/argus/collector/ui/";
    /** Every file the UI consists of; nothing else under {@link #DIR} is served. */
    private static final String[] FILES = {
        "index.html", "argus.js", "argus.css", "uplot.min.js", "uplot.min.css", "uplot.LICENSE", "favicon.ico"};

    record File(String contentType, byte[] body) {
    }

    private final Map<String, File> files = new HashMap<>();

    StaticFiles() {
        for (String name : FILES) {
            files.put(name, new File(contentType(name), read(DIR + name)));
        }
    }

    /** The file called {@code name}, or {@code null}. */
    File get(String name) {
        return files.get(name);
    }

    private static String contentType(String name) {
        if (name.endsWith(".html")) {
            return "text/html; charset=utf-8";
        }
        if (name.endsWith(".js")) {
            return "text/javascript; charset=utf-8";
        }
        if (name.endsWith(".css")) {
            return "text/css; charset=utf-8";
        }
        if (name.endsWith(".ico")) {
            return "image/x-icon";
        }
        return "text/plain; charset=utf-8";
    }

    private static byte[] read(String resource) {
        try (InputStream in = StaticFiles.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
