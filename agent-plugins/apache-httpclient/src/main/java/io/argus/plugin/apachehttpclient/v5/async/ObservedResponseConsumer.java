package io.argus.plugin.apachehttpclient.v5.async;

import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.CapacityChannel;
import org.apache.hc.core5.http.protocol.HttpContext;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Stands between the client and the application's {@code AsyncResponseConsumer}: it reads the final
 * response's status for the {@link AsyncClientCall} and passes everything on unchanged. The status
 * cannot come from the result, which is whatever the application's consumer builds (a
 * {@code SimpleHttpResponse}, a {@code Message}, or a type of its own). Redirects and authentication
 * challenges are answered inside the client and never reach the consumer.
 *
 * <p>A helper class, defined in the client's class loader (see {@link AsyncClientCall}).
 */
public final class ObservedResponseConsumer<T> implements AsyncResponseConsumer<T> {

    private final AsyncResponseConsumer<T> delegate;
    private final AsyncClientCall call;

    public ObservedResponseConsumer(AsyncResponseConsumer<T> delegate, AsyncClientCall call) {
        this.delegate = delegate;
        this.call = call;
    }

    @Override
    public void consumeResponse(HttpResponse response, EntityDetails entityDetails, HttpContext context,
                                FutureCallback<T> resultCallback) throws HttpException, IOException {
        call.responseReceived(response);
        delegate.consumeResponse(response, entityDetails, context, resultCallback);
    }

    @Override
    public void informationResponse(HttpResponse response, HttpContext context) throws HttpException, IOException {
        delegate.informationResponse(response, context);
    }

    @Override
    public void failed(Exception cause) {
        delegate.failed(cause);
    }

    @Override
    public void updateCapacity(CapacityChannel capacityChannel) throws IOException {
        delegate.updateCapacity(capacityChannel);
    }

    @Override
    public void consume(ByteBuffer src) throws IOException {
        delegate.consume(src);
    }

    @Override
    public void streamEnd(List<? extends Header> trailers) throws HttpException, IOException {
        delegate.streamEnd(trailers);
    }

    @Override
    public void releaseResources() {
        delegate.releaseResources();
    }
}
