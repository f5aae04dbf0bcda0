package io.argus.core.db;

import io.argus.bridge.ActiveSpan;
import io.argus.core.AgentCounters;
import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.metrics.CallStats;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.Sampler;
import io.argus.core.trace.Tracer;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The JDBC side of the hooks, driven the way the jdbc plugin's advice drives it. */
class DatabaseRecorderTest {

    private final List<RecordedSpan> spans = new ArrayList<>();
    private final Tracer tracer = new Tracer(new Sampler(100), spans::add);
    private final CallMetricsTable db = new CallMetricsTable(10);
    private final DatabaseRecorder hooks = new DatabaseRecorder(tracer, db, new StatementTracker(new AgentCounters()));
    private final AtomicInteger metadataCalls = new AtomicInteger();

    private Connection connection(String url) {
        DatabaseMetaData meta = (DatabaseMetaData) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{DatabaseMetaData.class}, (p, m, a) -> m.getName().equals("getURL") ? url : null);
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Connection.class},
                (p, m, a) -> {
                    if (m.getName().equals("getMetaData")) {
                        metadataCalls.incrementAndGet();
                        return meta;
                    }
                    return m.getName().equals("hashCode") ? System.identityHashCode(p) : null;
                });
    }

    private Statement statement(Connection connection) {
        return (Statement) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Statement.class},
                (p, m, a) -> m.getName().equals("getConnection") ? connection
                        : m.getName().equals("hashCode") ? System.identityHashCode(p) : null);
    }

    /** What the advice does around one execute call. */
    private void execute(Object statement, String sql, Throwable error, Runnable inside) {
        long start = hooks.enter();
        ActiveSpan span = start != 0 ? hooks.start(statement, sql) : null;
        inside.run();
        hooks.exit(span, start, statement, sql, error);
    }

    @Test
    void preparedAndPlainStatementsAreCountedPerTypeAndDatabase() {
        Connection connection = connection("jdbc:h2:mem:shop;DB_CLOSE_DELAY=-1");
        Statement prepared = statement(connection);
        Statement plain = statement(connection);
        hooks.statementCreated(prepared, connection, "insert into t values (?, 'x')");
        hooks.statementCreated(plain, connection, null);

        RecordedSpan parent = tracer.startServer("GET", "/", null, null, null);
        execute(prepared, null, null, () -> { });
        execute(plain, "SELECT * FROM t WHERE id = 42", new IllegalStateException("boom"), () -> { });
        // a wrapper calling the driver: counted once
        Statement driver = statement(connection);
        execute(plain, "delete from t", null, () -> execute(driver, "delete from t", null, () -> { }));
        tracer.end(parent, System.nanoTime(), null, false);

        assertThat(metadataCalls).as("the URL is read once per connection").hasValue(1);
        List<CallStats.Snapshot> cells = db.takeSnapshots();
        assertThat(cells).extracting(c -> c.method + " " + c.target + " " + c.count + " " + c.errors)
                .containsExactlyInAnyOrder("INSERT h2:mem:shop 1 0", "SELECT h2:mem:shop 1 1", "DELETE h2:mem:shop 1 0");
        assertThat(spans).hasSize(4);
        RecordedSpan insert = spans.get(0);
        assertThat(insert.kind()).isEqualTo(RecordedSpan.KIND_CLIENT);
        assertThat(insert.parentSpanId()).isEqualTo(parent.spanId());
        assertThat(insert.displayName()).isEqualTo("INSERT mem:shop");
        assertThat(insert.dbSystem()).isEqualTo("h2");
        assertThat(insert.target()).isEqualTo("insert into t values (?, 'x')");
        assertThat(spans.get(1).status()).isEqualTo(RecordedSpan.STATUS_ERROR);
        assertThat(spans.get(1).error()).isEqualTo(IllegalStateException.class.getName());
        assertThat(tracer.current()).isNull();
    }

    @Test
    void untracedExecutionsRecordMetricsOnly() {
        Connection connection = connection("jdbc:derby:memory:m;create=true");
        Statement unseen = statement(connection);
        execute(unseen, "update t set a = 1", null, () -> { });
        execute(unseen, "update t set a = 2", null, () -> { });
        assertThat(spans).isEmpty();
        List<CallStats.Snapshot> cells = db.takeSnapshots();
        assertThat(cells).hasSize(1);
        assertThat(cells.get(0).method).isSameAs(SqlTypes.UPDATE);
        assertThat(cells.get(0).target).isEqualTo("derby:memory:m");
        assertThat(cells.get(0).count).isEqualTo(2);
    }

    @Test
    void plainBatchesTakeTheTypeOfTheirFirstStatement() {
        Connection connection = connection("jdbc:h2:mem:b");
        Statement plain = statement(connection);
        hooks.statementCreated(plain, connection, null);
        hooks.addBatch(plain, "INSERT INTO t VALUES (1)");
        hooks.addBatch(plain, "UPDATE t SET a = 2");
        execute(plain, null, null, () -> { });
        execute(plain, null, null, () -> { });
        assertThat(db.takeSnapshots()).extracting(c -> c.method + " " + c.count)
                .containsExactlyInAnyOrder("INSERT 1", "OTHER 1");
    }
}
