package io.argus.plugin.mongodb;

/** The oldest tested drivers (4.11): their jars from target/libs/ in place of the newest. */
class MongoOldestIT extends MongoNewestIT {

    @Override
    String version() {
        return System.getProperty("argus.test.mongodb.oldest");
    }

    @Override
    void basicsOnTheNewestJdk() {
        // the newest JDK runs with the newest drivers only
    }
}
