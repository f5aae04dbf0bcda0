package io.argus.plugin.jdbc;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

import static io.argus.core.plugin.ArgumentMatchers.takesArgumentNamed;
import static io.argus.core.plugin.ArgumentMatchers.takesArgumentsNamed;
import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Client spans and database metrics for JDBC statement executions, whatever the driver or pool.
 *
 * <p>Drivers implement {@code java.sql.Statement} and {@code java.sql.Connection} in classes of
 * their own, so these are hierarchy probes. {@code java.sql} is visible to every class loader,
 * so a plain hierarchy probe would make the agent resolve the super types of every class the
 * application loads; the probes therefore carry simple-name hints: only classes whose simple
 * name contains {@code Statement} (resp. {@code Connection}) are looked at, which every driver and
 * pool we know follows (H2 {@code JdbcPreparedStatement}, Derby {@code EmbedStatement},
 * PostgreSQL {@code PgStatement}, MySQL {@code StatementImpl}, HikariCP
 * {@code HikariProxyStatement}, ...). See README.md.
 */
public final class JdbcPlugin implements ArgusPlugin {

    static final String STATEMENT = "java.sql.Statement";
    static final String CONNECTION = "java.sql.Connection";
    private static final String ADVICE = "io.argus.plugin.jdbc.";

    @Override
    public String name() {
        return "jdbc";
    }

    @Override
    public void instrument(Probes probes) {
        ElementMatcher.Junction<MethodDescription> executions = named("execute").or(named("executeQuery"))
                .or(named("executeUpdate")).or(named("executeLargeUpdate"))
                .and(takesArguments(0).or(takesArgumentNamed(0, "java.lang.String")))
                .or(named("executeBatch").or(named("executeLargeBatch")).and(takesArguments(0)));
        probes.subtypesOf(STATEMENT, "Statement")
                .advise(isPublic().and(not(isAbstract())).and(executions), ADVICE + "ExecuteAdvice")
                .advise(isPublic().and(not(isAbstract())).and(named("addBatch")).and(takesArgumentsNamed("java.lang.String")),
                        ADVICE + "AddBatchAdvice")
                .advise(isPublic().and(not(isAbstract())).and(named("clearBatch")).and(takesArguments(0)),
                        ADVICE + "ClearBatchAdvice");
        probes.subtypesOf(CONNECTION, "Connection")
                .advise(isPublic().and(not(isAbstract()))
                                .and(named("prepareStatement").or(named("prepareCall")))
                                .and(takesArgumentNamed(0, "java.lang.String")),
                        ADVICE + "PrepareAdvice")
                .advise(isPublic().and(not(isAbstract())).and(named("createStatement")), ADVICE + "CreateStatementAdvice");
    }
}
