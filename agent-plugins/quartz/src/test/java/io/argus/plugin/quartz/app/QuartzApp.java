package io.argus.plugin.quartz.app;

import com.sun.net.httpserver.HttpServer;
import io.argus.bridge.context.TraceContext;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.Scheduler;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.TriggerBuilder;
import org.quartz.impl.StdSchedulerFactory;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The test application: a Quartz scheduler (RAM store, two worker threads) running {@code reports.stock}
 * every 300 ms, which calls this process's own HTTP service ({@code GET /stock}, the JDK's HttpServer)
 * and queries H2, and {@code reports.broken}, which throws. Prints {@code RUN job=... n=... context=...}
 * per run (context: whether a trace context is current inside the job: its own run's) and {@code DONE} after six
 * runs of each.
 */
public final class QuartzApp {

    static volatile int port;
    static final AtomicInteger STOCK_RUNS = new AtomicInteger();
    static final AtomicInteger BROKEN_RUNS = new AtomicInteger();

    public static void main(String[] args) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/stock", exchange -> {
            byte[] body = "42".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        port = server.getAddress().getPort();
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:stock;DB_CLOSE_DELAY=-1");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE items (id INT PRIMARY KEY, qty INT)");
            s.execute("INSERT INTO items VALUES (1, 5)");
        }
        // spans that end before the agent has connected to the collector are dropped by design
        Thread.sleep(1500);
        Properties props = new Properties();
        props.setProperty("org.quartz.scheduler.instanceName", "argus-test");
        props.setProperty("org.quartz.threadPool.threadCount", "2");
        props.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
        props.setProperty("org.quartz.scheduler.skipUpdateCheck", "true");
        Scheduler scheduler = new StdSchedulerFactory(props).getScheduler();
        scheduler.scheduleJob(JobBuilder.newJob(StockJob.class).withIdentity("stock", "reports").build(),
                TriggerBuilder.newTrigger().startNow()
                        .withSchedule(SimpleScheduleBuilder.repeatSecondlyForever(1).withIntervalInMilliseconds(300)).build());
        scheduler.scheduleJob(JobBuilder.newJob(BrokenJob.class).withIdentity("broken", "reports").build(),
                TriggerBuilder.newTrigger().startNow()
                        .withSchedule(SimpleScheduleBuilder.repeatSecondlyForever(1).withIntervalInMilliseconds(300)).build());
        scheduler.start();
        while (STOCK_RUNS.get() < 6 || BROKEN_RUNS.get() < 6) {
            Thread.sleep(50);
        }
        scheduler.shutdown(true);
        server.stop(0);
        print("DONE");
        Thread.sleep(Long.MAX_VALUE);
    }

    /** Calls the HTTP service and queries H2. */
    public static final class StockJob implements Job {
        @Override
        public void execute(JobExecutionContext context) throws JobExecutionException {
            int n = STOCK_RUNS.incrementAndGet();
            print("RUN job=stock n=" + n + " context=" + (TraceContext.current() != null));
            try {
                HttpURLConnection http = (HttpURLConnection) new URL("http://127.0.0.1:" + port + "/stock").openConnection();
                try (InputStream in = http.getInputStream()) {
                    in.readAllBytes();
                }
                try (Connection c = DriverManager.getConnection("jdbc:h2:mem:stock");
                     Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT qty FROM items WHERE id = 1")) {
                    rs.next();
                }
            } catch (Exception e) {
                throw new JobExecutionException(e);
            }
        }
    }

    /** Fails every run with an exception of its own, which Quartz catches and logs. */
    public static final class BrokenJob implements Job {
        @Override
        public void execute(JobExecutionContext context) {
            int n = BROKEN_RUNS.incrementAndGet();
            print("RUN job=broken n=" + n + " context=" + (TraceContext.current() != null));
            throw new IllegalStateException("broken on purpose");
        }
    }

    static void print(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }
}
