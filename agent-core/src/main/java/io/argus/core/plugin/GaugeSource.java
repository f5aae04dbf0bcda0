package io.argus.core.plugin;

/** Something that reports point-in-time values once per metrics interval, on the exporter thread. */
public interface GaugeSource {

    void sample(GaugeSink sink);

    interface GaugeSink {
        void gauge(String name, double value);
    }
}
