package io.argus.plugin.grpc.app;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code argus.test.Chain}, with hand-written method descriptors over UTF-8 strings (what protoc's generated code
 * holds, without protobuf): one method of each call type, each of which calls the next service's {@code Unary} when
 * there is a next service, {@code Fail} (NOT_FOUND), and {@code Fanout}, which calls the next service's five.
 */
public final class ChainService {
    static final String SERVICE = "argus.test.Chain";
    static final MethodDescriptor.Marshaller<String> UTF8 = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(String value) {
            return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String parse(InputStream stream) {
            try {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };
    public static final MethodDescriptor<String, String> UNARY = method("Unary", MethodDescriptor.MethodType.UNARY);
    static final MethodDescriptor<String, String> SERVER_STREAM = method("ServerStream",
            MethodDescriptor.MethodType.SERVER_STREAMING);
    static final MethodDescriptor<String, String> CLIENT_STREAM = method("ClientStream",
            MethodDescriptor.MethodType.CLIENT_STREAMING);
    static final MethodDescriptor<String, String> BIDI = method("Bidi", MethodDescriptor.MethodType.BIDI_STREAMING);
    static final MethodDescriptor<String, String> FAIL = method("Fail", MethodDescriptor.MethodType.UNARY);
    public static final MethodDescriptor<String, String> FANOUT = method("Fanout", MethodDescriptor.MethodType.UNARY);

    private final Channel next;

    ChainService(Channel next) {
        this.next = next;
    }

    private static MethodDescriptor<String, String> method(String name, MethodDescriptor.MethodType type) {
        return MethodDescriptor.<String, String>newBuilder().setType(type)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
                .setRequestMarshaller(UTF8).setResponseMarshaller(UTF8).build();
    }

    ServerServiceDefinition definition() {
        return ServerServiceDefinition.builder(SERVICE)
                .addMethod(UNARY, ServerCalls.asyncUnaryCall((req, out) -> {
                    out.onNext("unary(" + callNext(req) + ")");
                    out.onCompleted();
                }))
                .addMethod(SERVER_STREAM, ServerCalls.asyncServerStreamingCall((req, out) -> {
                    String down = callNext(req);
                    for (int i = 0; i < 3; i++) {
                        out.onNext("stream-" + i + "(" + down + ")");
                    }
                    out.onCompleted();
                }))
                .addMethod(CLIENT_STREAM, ServerCalls.asyncClientStreamingCall(out -> new Collecting(out, false)))
                .addMethod(BIDI, ServerCalls.asyncBidiStreamingCall(out -> new Collecting(out, true)))
                .addMethod(FAIL, ServerCalls.asyncUnaryCall((req, out) ->
                        out.onError(Status.NOT_FOUND.withDescription("no " + req).asRuntimeException())))
                .addMethod(FANOUT, ServerCalls.asyncUnaryCall((req, out) -> {
                    try {
                        out.onNext(fanout(req));
                        out.onCompleted();
                    } catch (Exception e) {
                        out.onError(Status.INTERNAL.withCause(e).withDescription(e.toString()).asRuntimeException());
                    }
                }))
                .build();
    }

    /** The next service's five methods, one after the other. */
    private String fanout(String req) throws Exception {
        StringBuilder out = new StringBuilder();
        out.append(ClientCalls.blockingUnaryCall(next, UNARY, CallOptions.DEFAULT, req)).append(' ');
        Iterator<String> stream = ClientCalls.blockingServerStreamingCall(next, SERVER_STREAM, CallOptions.DEFAULT, req);
        while (stream.hasNext()) {
            out.append(stream.next()).append(' ');
        }
        out.append(streaming(false, req)).append(' ');
        out.append(streaming(true, req)).append(' ');
        try {
            ClientCalls.blockingUnaryCall(next, FAIL, CallOptions.DEFAULT, req);
            out.append("fail-answered");
        } catch (StatusRuntimeException e) {
            out.append("fail=").append(e.getStatus().getCode());
        }
        return out.toString();
    }

    /** A client-streaming or bidi call of the next service with two messages; its answers joined. */
    private String streaming(boolean bidi, String req) throws Exception {
        CompletableFuture<String> done = new CompletableFuture<>();
        StringBuilder answers = new StringBuilder();
        StreamObserver<String> responses = new StreamObserver<>() {
            @Override
            public void onNext(String value) {
                answers.append(value).append(';');
            }

            @Override
            public void onError(Throwable t) {
                done.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
                done.complete(answers.toString());
            }
        };
        StreamObserver<String> requests = bidi
                ? ClientCalls.asyncBidiStreamingCall(next.newCall(BIDI, CallOptions.DEFAULT), responses)
                : ClientCalls.asyncClientStreamingCall(next.newCall(CLIENT_STREAM, CallOptions.DEFAULT), responses);
        requests.onNext(req + "-1");
        requests.onNext(req + "-2");
        requests.onCompleted();
        return done.get(30, TimeUnit.SECONDS);
    }

    private String callNext(String req) {
        return next == null ? "leaf:" + req : ClientCalls.blockingUnaryCall(next, UNARY, CallOptions.DEFAULT, req);
    }

    /** Client streaming (one answer at the end) or bidi (an echo per message): the next service is called at the end. */
    private final class Collecting implements StreamObserver<String> {
        private final StreamObserver<String> out;
        private final boolean echo;
        private int count;

        Collecting(StreamObserver<String> out, boolean echo) {
            this.out = out;
            this.echo = echo;
        }

        @Override
        public void onNext(String value) {
            count++;
            if (echo) {
                out.onNext("echo(" + value + ")");
            }
        }

        @Override
        public void onError(Throwable t) {
            out.onError(t);
        }

        @Override
        public void onCompleted() {
            out.onNext(count + " received(" + callNext("end") + ")");
            out.onCompleted();
        }
    }
}
