package io.argus.plugin.logback.app;

import io.argus.testing.app.AgentBridge;
import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.server.ServerCalls;
import io.argus.testing.app.Downstream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Logs through SLF4J and Logback ({@code logback.xml}: a console appender, and an AsyncAppender in
 * front of it) outside any span, inside a server span and an in-process child span started through the
 * bridge, and after they ended on the same thread. Each tag is logged to logger {@code sync} as
 * {@code <tag>} and to logger {@code async} as {@code <tag>.async}.
 *
 * <p>Output: {@code LOG tag=<tag> trace_id=<id> span_id=<id> trace_flags=<flags> user=<MDC user>} per
 * event, {@code SPAN tag=<tag> traceId=<id> spanId=<id>} for the span current when a tag was logged,
 * then {@code DONE} once the async appender has written everything.
 */
public final class LogbackApp {

    private static final Logger SYNC = LoggerFactory.getLogger("sync");
    private static final Logger ASYNC = LoggerFactory.getLogger("async");

    public static void main(String[] args) throws Exception {
        AgentBridge.await(); // this test application names the agent's bridge itself
        Downstream.awaitGate();
        log("outside");

        long start = System.nanoTime();
        ActiveSpan server = ServerCalls.start("GET", "/logs", null, null);
        MDC.put("user", "u1");
        log("server");
        ActiveSpan child = TraceContext.startInternal("child");
        log("child");
        TraceContext.endInternal(child, null);
        log("server-again");
        ServerCalls.end(server, start, "GET", "/logs", 200, null);
        log("after");
        MDC.remove("user");

        // stopping the async appender (before the console) drains its queue into the console
        ((ch.qos.logback.classic.Logger) ASYNC).getAppender("ASYNC").stop();
        System.out.println("DONE");
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void log(String tag) {
        Object current = TraceContext.current();
        if (current instanceof ActiveSpan) {
            ActiveSpan span = (ActiveSpan) current;
            System.out.println("SPAN tag=" + tag + " traceId=" + span.traceIdHex() + " spanId=" + span.spanIdHex());
        }
        SYNC.info(tag);
        ASYNC.info(tag + ".async");
    }
}
