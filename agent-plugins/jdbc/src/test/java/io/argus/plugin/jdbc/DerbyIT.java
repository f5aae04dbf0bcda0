package io.argus.plugin.jdbc;

/** Apache Derby 10.14, embedded in memory: the version Apache Druid 33 keeps its metadata in. */
class DerbyIT extends AbstractJdbcIT {

    @Override
    String jars() {
        return "derby-" + System.getProperty("argus.test.derby");
    }

    @Override
    String url() {
        return "jdbc:derby:memory:argus;create=true";
    }

    @Override
    String callSql() {
        return "CALL SYSCS_UTIL.SYSCS_SET_DATABASE_PROPERTY('argus.test', '5')";
    }

    @Override
    String system() {
        return "derby";
    }

    @Override
    String target() {
        return "derby:memory:argus";
    }

    @Override
    String dbName() {
        return "memory:argus";
    }
}
