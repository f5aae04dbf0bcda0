package io.argus.plugin.netty3;

/** The oldest supported Netty 3: 3.3.0.Final, the first release as io.netty:netty. */
class Netty3OldestIT extends AbstractNetty3ClientIT {

    @Override
    String version() {
        return System.getProperty("argus.test.netty3.oldest");
    }
}
