/**
 * The bridge: the only agent classes that inlined advice can reach. They are defined in the
 * bootstrap class loader and reference nothing outside this package tree and the JDK.
 *
 * <p>It is split by domain, each a static facade over one small hooks interface that the agent
 * core installs at start-up (each with its own no-op until then, and when the agent is off):
 * <ul>
 *   <li>{@link io.argus.bridge.server.ServerCalls}: inbound requests (server spans, server metrics);</li>
 *   <li>{@link io.argus.bridge.client.ClientCalls}: outbound calls (client spans, header injection,
 *       client metrics);</li>
 *   <li>{@link io.argus.bridge.db.DatabaseCalls}: database calls, JDBC statements and other stores'
 *       commands (database spans and metrics);</li>
 *   <li>{@link io.argus.bridge.job.JobCalls}: scheduled jobs (root spans and job metrics);</li>
 *   <li>{@link io.argus.bridge.messaging.MessagingCalls}: messages sent to and processed from a broker
 *       (producer and consumer spans, context in the message headers, messaging metrics);</li>
 *   <li>{@link io.argus.bridge.rpc.RpcCalls}: remote procedure calls (gRPC server and client spans, RPC
 *       metrics per method and status code);</li>
 *   <li>{@link io.argus.bridge.context.TraceContext}: the current context, carried across threads,
 *       and in-process spans;</li>
 *   <li>{@link io.argus.bridge.state.ObjectField}: state the agent keeps on the application's objects.</li>
 * </ul>
 *
 * <h2>The hot-path contract</h2>
 * Stated once here, for every probe:
 * <ul>
 *   <li>An untraced request costs one volatile read (the domain's hooks) and a branch per call, and
 *       allocates nothing: every {@code start} returns {@code null}, and every {@code end} accepts a
 *       {@code null} span and still records the call's metrics.</li>
 *   <li>A traced request takes no lock, logs nothing, and allocates its span and little else.</li>
 *   <li>Advice declares {@code suppress = Throwable.class}; a throwable that escapes it goes to
 *       {@link io.argus.bridge.AdviceErrors#report}, is counted, and never reaches the application.
 *       Advice that makes a span current does so last, so that a failure before it leaves nothing
 *       behind on the thread.</li>
 *   <li>Headers are read and written through a one-method {@link io.argus.bridge.HeaderGetter} and
 *       {@link io.argus.bridge.HeaderSetter} per library; which headers, and how they are parsed, is
 *       written once in the core.</li>
 * </ul>
 */
package io.argus.bridge;
