package io.argus.plugin.redisson;

/** The oldest Redisson tested: redisson from target/libs/ in place of the newest. */
class RedissonOldestIT extends RedissonNewestIT {

    @Override
    String version() {
        return System.getProperty("argus.test.redisson.oldest");
    }

    @Override
    void basicsOnTheNewestJdk() {
        // the newest JDK runs with the newest release only
    }
}
