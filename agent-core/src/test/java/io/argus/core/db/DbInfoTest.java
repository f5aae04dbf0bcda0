package io.argus.core.db;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DbInfoTest {

    @Test
    void embeddedDatabases() {
        DbInfo h2 = DbInfo.fromUrl("jdbc:h2:mem:test;DB_CLOSE_DELAY=-1");
        assertThat(h2.system).isEqualTo("h2");
        assertThat(h2.name).isEqualTo("mem:test");
        assertThat(h2.host).isNull();
        assertThat(h2.target).isEqualTo("h2:mem:test");
        DbInfo derby = DbInfo.fromUrl("jdbc:derby:memory:druid;create=true");
        assertThat(derby.system).isEqualTo("derby");
        assertThat(derby.target).isEqualTo("derby:memory:druid");
    }

    @Test
    void networkDatabasesLoseCredentialsAndProperties() {
        DbInfo pg = DbInfo.fromUrl("jdbc:postgresql://db.example:5432/orders?user=u&password=secret");
        assertThat(pg.system).isEqualTo("postgresql");
        assertThat(pg.host).isEqualTo("db.example");
        assertThat(pg.port).isEqualTo(5432);
        assertThat(pg.name).isEqualTo("orders");
        assertThat(pg.target).isEqualTo("postgresql://db.example:5432/orders");
        DbInfo mysql = DbInfo.fromUrl("jdbc:mysql://root:pw@10.0.0.1:3306,10.0.0.2:3306/shop");
        assertThat(mysql.host).isEqualTo("10.0.0.1");
        assertThat(mysql.target).isEqualTo("mysql://10.0.0.1:3306/shop");
        DbInfo derby = DbInfo.fromUrl("jdbc:derby://localhost:1527/var/druid/metadata.db;create=true");
        assertThat(derby.target).isEqualTo("derby://localhost:1527/var/druid/metadata.db");
        DbInfo mssql = DbInfo.fromUrl("jdbc:sqlserver://sql:1433;databaseName=x;password=p");
        assertThat(mssql.target).isEqualTo("sqlserver://sql:1433");
        DbInfo h2tcp = DbInfo.fromUrl("jdbc:h2:tcp://localhost:9092/~/test");
        assertThat(h2tcp.host).isEqualTo("localhost");
        assertThat(h2tcp.target).isEqualTo("h2:tcp://localhost:9092/~/test");
        DbInfo oracle = DbInfo.fromUrl("jdbc:oracle:thin:@orahost:1521:ORCL");
        assertThat(oracle.host).isEqualTo("orahost");
        assertThat(oracle.target).isEqualTo("oracle://orahost:1521/ORCL");
    }

    @Test
    void unknownUrls() {
        assertThat(DbInfo.fromUrl(null)).isSameAs(DbInfo.UNKNOWN);
        assertThat(DbInfo.fromUrl("not a url")).isSameAs(DbInfo.UNKNOWN);
        assertThat(DbInfo.fromUrl("jdbc:p6spy:h2:mem:x").target).isEqualTo("h2:mem:x");
    }
}
