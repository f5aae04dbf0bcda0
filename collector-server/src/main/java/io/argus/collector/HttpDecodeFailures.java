package io.argus.collector;

import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;

/** What to answer a request whose head the HTTP codec could not decode: 414, 431 or 400, with a message. */
public final class HttpDecodeFailures {
    private HttpDecodeFailures() {
    }

    public static HttpResponseStatus status(HttpRequest failed) {
        Throwable cause = failed.decoderResult().cause();
        if (cause instanceof TooLongHttpLineException) {
            return HttpResponseStatus.REQUEST_URI_TOO_LONG;
        }
        if (cause instanceof TooLongHttpHeaderException) {
            return HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
        }
        return HttpResponseStatus.BAD_REQUEST;
    }

    public static String message(HttpRequest failed, HttpLimits limits) {
        HttpResponseStatus status = status(failed);
        if (status.equals(HttpResponseStatus.REQUEST_URI_TOO_LONG)) {
            return "request line longer than " + limits.maxRequestLineBytes() + " bytes (--http-max-request-line)";
        }
        if (status.equals(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE)) {
            return "request headers larger than " + limits.maxHeaderBytes() + " bytes (--http-max-header-bytes)";
        }
        return "malformed HTTP request: " + failed.decoderResult().cause();
    }
}
