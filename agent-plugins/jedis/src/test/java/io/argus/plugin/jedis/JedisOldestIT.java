package io.argus.plugin.jedis;

/** The oldest Jedis tested (4.x): jedis from target/libs/ in place of the newest. */
class JedisOldestIT extends JedisNewestIT {

    @Override
    String version() {
        return System.getProperty("argus.test.jedis.oldest");
    }

    @Override
    void basicsOnTheNewestJdk() {
        // the newest JDK runs with the newest release only
    }
}
