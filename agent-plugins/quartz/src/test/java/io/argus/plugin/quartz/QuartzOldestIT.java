package io.argus.plugin.quartz;

/** Quartz 2.3.2, the release the plugin is compiled against (Java 8 class files). */
class QuartzOldestIT extends QuartzNewestIT {

    @Override
    String version() {
        return System.getProperty("argus.test.quartz.oldest");
    }

    @Override
    void onTheNewestJdk() {
        // the newest JDK runs with the newest Quartz only
    }
}
