package io.argus.plugin.grpc;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import io.grpc.ForwardingServerCallListener;
import io.grpc.ServerCall;
import io.grpc.Status;

/**
 * The application's listener of a server call, with the call's span current around each callback (the thread
 * that runs it may differ from one to the next) and the call recorded as CANCELLED when the client gives up. A
 * helper class.
 */
public final class TracedServerListener<ReqT> extends ForwardingServerCallListener.SimpleForwardingServerCallListener<ReqT> {
    private final TracedServerCall<ReqT, ?> call;

    TracedServerListener(ServerCall.Listener<ReqT> listener, TracedServerCall<ReqT, ?> call) {
        super(listener);
        this.call = call;
    }

    @Override
    public void onMessage(ReqT message) {
        Object previous = enter();
        try {
            super.onMessage(message);
        } finally {
            exit(previous);
        }
    }

    @Override
    public void onHalfClose() {
        Object previous = enter();
        try {
            super.onHalfClose();
        } finally {
            exit(previous);
        }
    }

    @Override
    public void onCancel() {
        call.end(Status.CANCELLED);
        Object previous = enter();
        try {
            super.onCancel();
        } finally {
            exit(previous);
        }
    }

    @Override
    public void onComplete() {
        Object previous = enter();
        try {
            super.onComplete();
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
        ActiveSpan span = call.span;
        return span == null ? null : TraceContext.attach(span);
    }

    private void exit(Object previous) {
        if (call.span != null) {
            TraceContext.restore(previous);
        }
    }
}
