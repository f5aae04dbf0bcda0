package io.argus.plugin.undertow;

/** Undertow 2.2.0.Final, the oldest supported release. */
class UndertowOldestIT extends AbstractUndertowIT {

    @Override
    String version() {
        return System.getProperty("argus.test.undertow.oldest");
    }
}
