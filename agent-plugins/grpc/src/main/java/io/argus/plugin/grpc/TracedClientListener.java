package io.argus.plugin.grpc;

import io.argus.bridge.context.TraceContext;
import io.grpc.ClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.Status;

/** The response listener of a client call: ends it on close, with the caller's context current around each callback. A helper class. */
public final class TracedClientListener<RespT> extends ForwardingClientCallListener.SimpleForwardingClientCallListener<RespT> {
    private final TracedClientCall<?, RespT> call;

    TracedClientListener(ClientCall.Listener<RespT> listener, TracedClientCall<?, RespT> call) {
        super(listener);
        this.call = call;
    }

    @Override
    public void onHeaders(Metadata headers) {
        Object previous = enter();
        try {
            super.onHeaders(headers);
        } finally {
            exit(previous);
        }
    }

    @Override
    public void onMessage(RespT message) {
        Object previous = enter();
        try {
            super.onMessage(message);
        } finally {
            exit(previous);
        }
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
        call.end(status);
        Object previous = enter();
        try {
            super.onClose(status, trailers);
        } finally {
            exit(previous);
        }
    }

    @Override
    public void onReady() {
        Object previous = enter();
        try {
            super.onReady();
        } finally {
            exit(previous);
        }
    }

    private Object enter() {
        Object context = call.parentContext;
        return context == null ? null : TraceContext.attach(context);
    }

    private void exit(Object previous) {
        if (call.parentContext != null) {
            TraceContext.restore(previous);
        }
    }
}
