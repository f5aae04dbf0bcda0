package io.argus.plugin.netty4server;

/** The oldest supported Netty 4.1 (4.1.50.Final), also the test application's compile API. */
class Netty41OldestIT extends AbstractNetty4ServerIT {

    @Override
    String version() {
        return System.getProperty("argus.test.netty41.oldest");
    }
}
