package io.argus.plugin.lettuce;

/** The oldest Lettuce 6.x tested: lettuce-core from target/libs/ in place of the newest. */
class LettuceOldestIT extends LettuceNewestIT {

    @Override
    String version() {
        return System.getProperty("argus.test.lettuce.oldest");
    }

    @Override
    void basicsOnTheNewestJdk() {
        // the newest JDK runs with the newest release only
    }
}
