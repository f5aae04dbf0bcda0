package io.argus.springboot.app;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** Three orders in an in-memory H2 database, created when the bean is. */
@Repository
public class OrdersRepository {

    private final JdbcTemplate jdbc;

    public OrdersRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        jdbc.execute("create table if not exists orders (id bigint primary key, item varchar(64))");
        jdbc.update("merge into orders key (id) values (1, 'apple'), (2, 'pear'), (3, 'plum')");
    }

    public String item(long id) {
        return jdbc.queryForObject("select item from orders where id = ?", String.class, id);
    }

    public int count() {
        Integer count = jdbc.queryForObject("select count(*) from orders", Integer.class);
        return count == null ? 0 : count;
    }
}
