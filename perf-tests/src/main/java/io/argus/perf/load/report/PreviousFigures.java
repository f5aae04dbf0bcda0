package io.argus.perf.load.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The previous release's figures a regression check sets beside the run's: a properties file beside this class. */
final class PreviousFigures {

    private PreviousFigures() {
    }

    /** The file's keys and values; empty when it is missing. */
    static Properties load(String resource) {
        Properties p = new Properties();
        try (InputStream in = PreviousFigures.class.getResourceAsStream(resource)) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
        return p;
    }
}
