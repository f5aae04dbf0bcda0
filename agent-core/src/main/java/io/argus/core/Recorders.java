package io.argus.core;

import io.argus.bridge.AdviceErrors;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.db.DatabaseCalls;
import io.argus.bridge.job.JobCalls;
import io.argus.bridge.messaging.MessagingCalls;
import io.argus.bridge.rpc.RpcCalls;
import io.argus.bridge.server.ServerCalls;
import io.argus.core.client.ClientRecorder;
import io.argus.core.config.AgentSettings;
import io.argus.core.db.DatabaseRecorder;
import io.argus.core.db.StatementTracker;
import io.argus.core.job.JobRecorder;
import io.argus.core.messaging.MessagingRecorder;
import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.rpc.RpcRecorder;
import io.argus.core.server.RouteNormalizer;
import io.argus.core.server.ServerRecorder;
import io.argus.core.trace.ContextRecorder;
import io.argus.core.trace.Tracer;

/**
 * The recorders the bridge hands the advice's calls to, installed, and the call-metric tables they fill, which
 * the exporter sends. Installed before any plugin is loaded: advice that the class cache put in early records
 * with them.
 */
final class Recorders {

    final CallMetricsTable serverMetrics;
    final CallMetricsTable clientMetrics;
    final CallMetricsTable dbMetrics;
    final CallMetricsTable jobMetrics;
    final CallMetricsTable producedMetrics;
    final CallMetricsTable consumedMetrics;
    final CallMetricsTable rpcServerMetrics;
    final CallMetricsTable rpcClientMetrics;

    private Recorders(AgentSettings settings) {
        serverMetrics = CallMetricsTable.forHttp(settings.maxMetricTargets);
        clientMetrics = CallMetricsTable.forHttp(settings.maxMetricTargets);
        dbMetrics = new CallMetricsTable(settings.maxMetricTargets);
        jobMetrics = new CallMetricsTable(settings.maxMetricTargets);
        producedMetrics = new CallMetricsTable(settings.maxMetricTargets);
        consumedMetrics = new CallMetricsTable(settings.maxMetricTargets);
        rpcServerMetrics = new CallMetricsTable(settings.maxMetricTargets);
        rpcClientMetrics = new CallMetricsTable(settings.maxMetricTargets);
    }

    static Recorders install(AgentSettings settings, Tracer tracer, AgentCounters counters) {
        Recorders recorders = new Recorders(settings);
        AdviceErrors.install(new AdviceErrorLog(counters));
        ServerCalls.install(new ServerRecorder(tracer, recorders.serverMetrics, new RouteNormalizer(settings.normalizeRoutes)));
        ClientCalls.install(new ClientRecorder(tracer, recorders.clientMetrics));
        DatabaseCalls.install(new DatabaseRecorder(tracer, recorders.dbMetrics, new StatementTracker(counters)));
        TraceContext.install(new ContextRecorder(tracer));
        MessagingCalls.install(new MessagingRecorder(tracer, recorders.producedMetrics, recorders.consumedMetrics));
        RpcCalls.install(new RpcRecorder(tracer, recorders.rpcServerMetrics, recorders.rpcClientMetrics));
        JobCalls.install(new JobRecorder(tracer, recorders.jobMetrics));
        return recorders;
    }
}
