package io.argus.plugin.jdbc;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.db.DatabaseCalls;
import net.bytebuddy.asm.Advice;

/**
 * Around {@code execute*}/{@code executeBatch} of any {@code java.sql.Statement}. The outermost
 * execution on the thread records; nested ones (a pool's wrapper calling the driver, a driver
 * calling its own overloads) only keep the depth count. Untraced, nothing is allocated: the
 * bridge reads the thread's depth and context, and the metrics cell is found by look-ups.
 */
public final class ExecuteAdvice {

    private ExecuteAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static long enter(@Advice.This Object statement,
                             @Advice.Argument(value = 0, optional = true) String sql,
                             @Advice.Local("argusSpan") ActiveSpan span) {
        long start = DatabaseCalls.enter();
        if (start != 0) {
            span = DatabaseCalls.start(statement, sql);
        }
        return start;
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@Advice.Enter long start,
                            @Advice.This Object statement,
                            @Advice.Argument(value = 0, optional = true) String sql,
                            @Advice.Local("argusSpan") ActiveSpan span,
                            @Advice.Thrown Throwable error) {
        DatabaseCalls.exit(span, start, statement, sql, error);
    }
}
