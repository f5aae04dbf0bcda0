package io.argus.plugin.netty4server;

/** Netty 4.2 (codec classes moved to netty-codec-base; same class names). */
class Netty42IT extends AbstractNetty4ServerIT {

    @Override
    String version() {
        return System.getProperty("argus.test.netty42");
    }
}
