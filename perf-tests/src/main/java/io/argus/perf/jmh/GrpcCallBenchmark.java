package io.argus.perf.jmh;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A blocking unary gRPC call over grpc-java's in-process transport, server and channel in this JVM (see
 * {@link ProbeCostMain}): the grpc plugin's client and server interceptors run on every call, without a socket in
 * the way. At 0% the call is untraced (the interceptors' wrappers are its only cost); at 100% the benchmark thread
 * holds an open server span, so the call has a CLIENT span, and the server side joins it with a SERVER span.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class GrpcCallBenchmark {

    private static final byte[] BODY = {1, 2, 3, 4};
    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    };
    private static final MethodDescriptor<byte[], byte[]> ECHO = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName("bench.Echo/Echo")
            .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();

    private Server server;
    private ManagedChannel channel;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        String name = "bench-" + System.nanoTime();
        server = InProcessServerBuilder.forName(name).directExecutor()
                .addService(ServerServiceDefinition.builder("bench.Echo")
                        .addMethod(ECHO, ServerCalls.asyncUnaryCall((req, out) -> {
                            out.onNext(req);
                            out.onCompleted();
                        })).build())
                .build().start();
        channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        if (Boolean.getBoolean("bench.openSpan")) {
            ProbeCostBenchmark.openServerSpan();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        channel.shutdownNow();
        server.shutdownNow();
    }

    @Benchmark
    public byte[] unaryCall() {
        return ClientCalls.blockingUnaryCall(channel, ECHO, CallOptions.DEFAULT, BODY);
    }
}
