package io.argus.plugin.jdbc;

/** H2 2.0.202, the first 2.x release: the oldest H2 the plugin claims. */
class H2OldestIT extends AbstractJdbcIT {

    @Override
    String jars() {
        return "h2-" + System.getProperty("argus.test.h2.oldest");
    }

    @Override
    String url() {
        return "jdbc:h2:mem:argus;DB_CLOSE_DELAY=-1";
    }

    @Override
    String callSql() {
        return "CALL ABS(-5)";
    }

    @Override
    String system() {
        return "h2";
    }

    @Override
    String target() {
        return "h2:mem:argus";
    }

    @Override
    String dbName() {
        return "mem:argus";
    }
}
