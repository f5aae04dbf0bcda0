package io.argus.collector.otlp;

import io.argus.collector.ingest.AgentRegistry;
import io.argus.collector.security.HttpCredentials;
import io.argus.collector.storage.IngestSink;
import io.argus.collector.storage.Source;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.SpanBatch;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.exporter.otlp.trace.OtlpGrpcSpanExporter;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which OTLP/gRPC server costs the collector less CPU per span (a harness run by hand, not by {@code mvn verify}):
 * the collector's receiver on Netty's HTTP/2 codec, and grpc-java (Netty transport, {@code grpc-netty-shaded})
 * serving the same two methods with the same decoding and mapping ({@link OtlpExport}). The OpenTelemetry Java
 * SDK's gRPC exporter sends the same batches (512 server spans, 6 attributes each) to both, in alternating
 * rounds in one JVM; the CPU time of each server's own threads (event loops, and grpc-java's executor) is
 * divided by the spans it mapped. Storage is a counting sink, so the figures are transport, decoding and mapping.
 *
 * <pre>
 * mvn -q -o -pl protocol,collector-server test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * cd collector-server
 * java -cp target/test-classes:target/classes:$(cat target/cp.txt) \
 *      io.argus.collector.otlp.OtlpGrpcTransportBenchmark [rounds=10] [batchesPerRound=200]
 * </pre>
 */
public final class OtlpGrpcTransportBenchmark {
    static final int SPANS = 512;

    /** Takes everything, counts spans. */
    static final class CountingSink implements IngestSink {
        final AtomicLong spans = new AtomicLong();

        @Override
        public boolean offerSpans(Source source, SpanBatch batch, Runnable handedOn) {
            spans.addAndGet(batch.getSpansCount());
            handedOn.run();
            return true;
        }

        @Override
        public boolean offerMetrics(Source source, MetricBatch batch, Runnable handedOn) {
            handedOn.run();
            return true;
        }

        @Override
        public boolean flush(Duration timeout) {
            return true;
        }

        @Override
        public void close() {
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int batches = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        List<SpanData> batch = batch();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();

        CountingSink nettySink = new CountingSink();
        EventLoopGroup boss = new NioEventLoopGroup(1, new DefaultThreadFactory("argus-accept", true));
        EventLoopGroup workers = new NioEventLoopGroup(2, new DefaultThreadFactory("argus-io", true));
        OtlpGrpcServer netty = OtlpGrpcServer.start("127.0.0.1", 0, boss, workers, 16 << 20, nettySink,
                new AgentRegistry(), new SimpleMeterRegistry(), null, HttpCredentials.NONE, window(), 10_000);

        CountingSink grpcSink = new CountingSink();
        Server grpc = grpcJava(grpcSink);

        double[] nettyUs = new double[rounds];
        double[] grpcUs = new double[rounds];
        try (OtlpGrpcSpanExporter toNetty = exporter(netty.port());
             OtlpGrpcSpanExporter toGrpc = exporter(grpc.getPort())) {
            for (int w = 0; w < 3; w++) { // warm-up: both servers' code compiled before the first round
                send(toNetty, batch, batches);
                send(toGrpc, batch, batches);
            }
            for (int r = 0; r < rounds; r++) {
                nettyUs[r] = round(threads, "argus-io", nettySink, toNetty, batch, batches);
                grpcUs[r] = round(threads, "grpc-", grpcSink, toGrpc, batch, batches);
            }
        } finally {
            netty.close();
            grpc.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            boss.shutdownGracefully();
            workers.shutdownGracefully();
        }
        System.out.printf("server CPU per span over %d rounds of %d x %d spans:%n", rounds, batches, SPANS);
        System.out.printf("  Netty HTTP/2 codec (the receiver): median %.2f µs, rounds %s%n", median(nettyUs),
                Arrays.toString(rounded(nettyUs)));
        System.out.printf("  grpc-java, Netty transport:        median %.2f µs, rounds %s%n", median(grpcUs),
                Arrays.toString(rounded(grpcUs)));
        double u = mannWhitneyU(nettyUs, grpcUs);
        double z = (u - rounds * rounds / 2.0) / Math.sqrt(rounds * rounds * (2.0 * rounds + 1) / 12);
        System.out.printf("  grpc-java / Netty codec: x%.2f; Mann-Whitney U = %.0f (n = %d each), two-sided p = %.3f"
                + " (normal approximation)%n", median(grpcUs) / median(nettyUs), u, rounds,
                2 * (1 - normalCdf(Math.abs(z))));
    }

    /** grpc-java serving TraceService/Export with the receiver's own decoding and mapping. */
    static Server grpcJava(CountingSink sink) throws IOException {
        MethodDescriptor<ExportTraceServiceRequest, ExportTraceServiceResponse> export =
                MethodDescriptor.<ExportTraceServiceRequest, ExportTraceServiceResponse>newBuilder()
                        .setType(MethodDescriptor.MethodType.UNARY)
                        .setFullMethodName("opentelemetry.proto.collector.trace.v1.TraceService/Export")
                        .setRequestMarshaller(new Protobuf<>(ExportTraceServiceRequest::parseFrom))
                        .setResponseMarshaller(new Protobuf<>(ExportTraceServiceResponse::parseFrom)).build();
        MetricMapper mapper = new MetricMapper();
        OtlpMetrics metrics = new OtlpMetrics(new SimpleMeterRegistry());
        AgentRegistry registry = new AgentRegistry();
        ServerServiceDefinition service = ServerServiceDefinition.builder(
                        "opentelemetry.proto.collector.trace.v1.TraceService")
                .addMethod(export, ServerCalls.asyncUnaryCall((req, observer) -> {
                    long now = System.currentTimeMillis();
                    OtlpExport mapped = OtlpExport.of(req, "127.0.0.1", now, window(), mapper, metrics);
                    mapped.registerSenders(registry, "127.0.0.1:0", now);
                    PendingOffers offers = new PendingOffers(10_000);
                    offers.start(mapped.mapped.offers, now);
                    offers.offerTo(sink); // the counting sink takes everything

                    observer.onNext((ExportTraceServiceResponse) mapped.answer);
                    observer.onCompleted();
                })).build();
        return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(service).build()
                .start();
    }

    /** A marshaller over the generated parser (what grpc-protobuf's would do). */
    record Protobuf<T extends com.google.protobuf.MessageLite>(Parser<T> parser)
            implements MethodDescriptor.Marshaller<T> {
        interface Parser<T> {
            T parse(InputStream in) throws IOException;
        }

        @Override
        public InputStream stream(T value) {
            return new ByteArrayInputStream(value.toByteArray());
        }

        @Override
        public T parse(InputStream stream) {
            try {
                return parser.parse(stream);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    static OtlpGrpcSpanExporter exporter(int port) {
        return OtlpGrpcSpanExporter.builder().setEndpoint("http://127.0.0.1:" + port)
                .setTimeout(Duration.ofSeconds(30)).build();
    }

    /** CPU µs per span of the threads whose names start with {@code prefix}, over one round. */
    static double round(ThreadMXBean threads, String prefix, CountingSink sink, OtlpGrpcSpanExporter exporter,
                        List<SpanData> batch, int batches) {
        long before = cpu(threads, prefix);
        long spans0 = sink.spans.get();
        send(exporter, batch, batches);
        long cpu = cpu(threads, prefix) - before;
        long spans = sink.spans.get() - spans0;
        return cpu / 1e3 / spans;
    }

    static void send(SpanExporter exporter, List<SpanData> batch, int batches) {
        for (int i = 0; i < batches; i++) {
            if (!exporter.export(batch).join(30, TimeUnit.SECONDS).isSuccess()) {
                throw new IllegalStateException("export failed");
            }
        }
    }

    static long cpu(ThreadMXBean threads, String prefix) {
        long sum = 0;
        for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith(prefix)) {
                long t = threads.getThreadCpuTime(info.getThreadId());
                sum += Math.max(0, t);
            }
        }
        return sum;
    }

    /** 512 finished server spans from the real SDK, collected instead of exported. */
    static List<SpanData> batch() {
        Resource resource = Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "bench",
                AttributeKey.stringKey("service.instance.id"), "bench-1"));
        List<SpanData> out = new ArrayList<>();
        SpanExporter collect = new SpanExporter() {
            @Override
            public CompletableResultCode export(Collection<SpanData> spans) {
                out.addAll(spans);
                return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode flush() {
                return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode shutdown() {
                return CompletableResultCode.ofSuccess();
            }
        };
        SdkTracerProvider provider = SdkTracerProvider.builder().setResource(resource)
                .addSpanProcessor(SimpleSpanProcessor.create(collect)).build();
        Tracer tracer = provider.get("bench");
        for (int i = 0; i < SPANS; i++) {
            tracer.spanBuilder("GET /orders/{id}").setSpanKind(SpanKind.SERVER)
                    .setAttribute("http.request.method", "GET").setAttribute("http.route", "/orders/{id}")
                    .setAttribute("url.path", "/orders/" + i).setAttribute("http.response.status_code", 200L)
                    .setAttribute("server.address", "shop").setAttribute("user_agent.original", "bench/1.0")
                    .startSpan().end();
        }
        provider.shutdown().join(10, TimeUnit.SECONDS);
        return out;
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    static double[] rounded(double[] v) {
        return Arrays.stream(v).map(x -> Math.round(x * 100) / 100.0).toArray();
    }

    /** The standard normal distribution function (Abramowitz and Stegun 26.2.17, error below 1e-7). */
    static double normalCdf(double x) {
        double t = 1 / (1 + 0.2316419 * Math.abs(x));
        double d = Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
        double p = d * t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978
                + t * 1.330274429))));
        return x >= 0 ? 1 - p : p;
    }

    /** U of the first sample: how often one of its values is below one of the second's (ties count half). */
    static double mannWhitneyU(double[] a, double[] b) {
        double u = 0;
        for (double x : a) {
            for (double y : b) {
                u += x < y ? 1 : x == y ? 0.5 : 0;
            }
        }
        return u;
    }

    /** Spans up to an hour ahead of this clock, of any age: the benchmark's spans are current. */
    private static io.argus.collector.ingest.ClockWindow window() {
        return new io.argus.collector.ingest.ClockWindow(java.time.Clock.systemUTC(), java.time.Duration.ofHours(1),
                java.time.Duration.ZERO, java.time.Duration.ZERO, new SimpleMeterRegistry());
    }
}
