package io.argus.plugin.apachehttpclient.v5.async;

import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.nio.AsyncRequestProducer;
import org.apache.hc.core5.http.nio.DataStreamChannel;
import org.apache.hc.core5.http.nio.RequestChannel;
import org.apache.hc.core5.http.protocol.HttpContext;

import java.io.IOException;

/**
 * Stands between the application's {@code AsyncRequestProducer} and the client: the producer hands its
 * request head to this object (as its {@link RequestChannel}), which tells the {@link AsyncClientCall}
 * and passes on the request, or for a traced call a copy with the trace headers, to the library's
 * channel. Everything else is the application's producer's. Both client families call
 * {@code sendRequest} once per request, inside {@code doExecute}; the body is streamed by the
 * application's producer, untouched.
 *
 * <p>A helper class, defined in the client's class loader (see {@link AsyncClientCall}).
 */
public final class ObservedRequestProducer implements AsyncRequestProducer, RequestChannel {

    private final AsyncRequestProducer delegate;
    private final AsyncClientCall call;
    private RequestChannel channel;

    public ObservedRequestProducer(AsyncRequestProducer delegate, AsyncClientCall call) {
        this.delegate = delegate;
        this.call = call;
    }

    @Override
    public void sendRequest(RequestChannel channel, HttpContext context) throws HttpException, IOException {
        this.channel = channel;
        delegate.sendRequest(this, context);
    }

    /** The application's producer sending its request head. */
    @Override
    public void sendRequest(HttpRequest request, EntityDetails entityDetails, HttpContext context)
            throws HttpException, IOException {
        channel.sendRequest(call.requestProduced(request), entityDetails, context);
    }

    @Override
    public boolean isRepeatable() {
        return delegate.isRepeatable();
    }

    @Override
    public void failed(Exception cause) {
        delegate.failed(cause);
    }

    @Override
    public int available() {
        return delegate.available();
    }

    @Override
    public void produce(DataStreamChannel channel) throws IOException {
        delegate.produce(channel);
    }

    @Override
    public void releaseResources() {
        delegate.releaseResources();
    }
}
