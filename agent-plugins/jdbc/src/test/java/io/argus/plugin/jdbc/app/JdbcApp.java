package io.argus.plugin.jdbc.app;

import io.argus.testing.app.AgentBridge;
import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.server.ServerCalls;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The test application: real JDBC against an embedded database given by URL. Each scenario runs
 * under a hand-made server span ({@code ServerCalls.start}) so the database spans have a parent,
 * and prints what the test compares: {@code ROOT tag=... traceparent=...}, {@code ERROR tag=...
 * class=... state=... message=...}, {@code CONTEXT tag=... current=...}, then {@code DONE}.
 *
 * <p>Database executions, by statement type, of one run (the IT checks the metrics against these):
 * OTHER 2 (CREATE TABLE untraced, the CALL), INSERT 3 with 1 error (plain, prepared batch,
 * duplicate key), SELECT 4 with 1 error (plain, prepared, missing table, untraced count),
 * UPDATE 2 (plain execute, plain batch), DELETE 1 (prepared).
 */
public final class JdbcApp {

    interface Work {
        void run(Connection c) throws SQLException;
    }

    public static void main(String[] args) throws Exception {
        AgentBridge.await(); // this test application names the agent's bridge itself
        String url = args[0];
        String callSql = args[1];
        // spans that end before the agent has connected to the collector are dropped by design; with
        // the plugin off nothing waits for instrumentation, and H2 would be done by then
        Thread.sleep(2000);
        try (Connection c = DriverManager.getConnection(url)) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(64))");
            }
            traced(c, "plain", conn -> {
                try (Statement s = conn.createStatement()) {
                    s.executeUpdate("INSERT INTO items VALUES (1, 'secret-one') -- comment 'x'");
                    try (ResultSet rs = s.executeQuery("SELECT name FROM items WHERE id = 1 AND name <> 'hidden'")) {
                        rs.next();
                    }
                    s.execute("UPDATE   items\n SET name = 'x2' WHERE id = -1");
                }
            });
            traced(c, "prepared", conn -> {
                try (PreparedStatement ps = conn.prepareStatement("SELECT name FROM items WHERE id = ?")) {
                    ps.setInt(1, 1);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                    }
                }
                try (PreparedStatement ps = conn.prepareStatement("DELETE FROM items WHERE id = ?")) {
                    ps.setInt(1, 99);
                    ps.executeUpdate();
                }
            });
            traced(c, "batch", conn -> {
                try (PreparedStatement ps = conn.prepareStatement("INSERT INTO items VALUES (?, ?)")) {
                    for (int i = 10; i < 13; i++) {
                        ps.setInt(1, i);
                        ps.setString(2, "n" + i);
                        ps.addBatch();
                    }
                    print("BATCH tag=prepared updates=" + ps.executeBatch().length);
                }
                try (Statement s = conn.createStatement()) {
                    s.addBatch("UPDATE items SET name = 'b' WHERE id = 10");
                    s.addBatch("DELETE FROM items WHERE id = 11");
                    print("BATCH tag=plain updates=" + s.executeBatch().length);
                }
            });
            traced(c, "call", conn -> {
                try (CallableStatement cs = conn.prepareCall(callSql)) {
                    cs.execute();
                }
            });
            traced(c, "error", conn -> {
                try (Statement s = conn.createStatement()) {
                    s.executeQuery("SELECT * FROM no_such_table WHERE id = 5");
                } catch (SQLException e) {
                    error("missing-table", e);
                }
                try (PreparedStatement ps = conn.prepareStatement("INSERT INTO items VALUES (?, ?)")) {
                    ps.setInt(1, 1);
                    ps.setString(2, "duplicate");
                    ps.executeUpdate();
                } catch (SQLException e) {
                    error("duplicate", e);
                }
            });
            // same thread, no parent span: metrics only, and no span may pick up an old context
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM items")) {
                rs.next();
                print("COUNT tag=after rows=" + rs.getInt(1));
            }
            print("CONTEXT tag=after current=" + (TraceContext.current() != null));
        }
        print("DONE");
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void traced(Connection c, String tag, Work work) throws SQLException {
        long start = System.nanoTime();
        ActiveSpan root = ServerCalls.start("GET", "/" + tag, null, null);
        print("ROOT tag=" + tag + " traceparent=" + (root == null ? "null" : root.traceparent()));
        try {
            work.run(c);
        } finally {
            ServerCalls.end(root, start, "GET", "/" + tag, 200, null);
        }
        print("CONTEXT tag=" + tag + " current=" + (TraceContext.current() != null));
    }

    private static void error(String tag, SQLException e) {
        print("ERROR tag=" + tag + " class=" + e.getClass().getName() + " state=" + e.getSQLState()
                + " code=" + e.getErrorCode() + " message=" + e.getMessage().replaceAll("\\s+", "_")
                .replaceAll("SQL\\d{6,}", "SQL#")); // Derby names constraints by time
    }

    private static void print(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
