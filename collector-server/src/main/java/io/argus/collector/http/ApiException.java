package io.argus.collector.http;

import io.netty.handler.codec.http.HttpResponseStatus;

/** A request the API refuses, answered as {@code {"error": message, "status": code}}. */
final class ApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final HttpResponseStatus status;

    ApiException(HttpResponseStatus status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    HttpResponseStatus status() {
        return status;
    }

    static ApiException badRequest(String message) {
        return new ApiException(HttpResponseStatus.BAD_REQUEST, message);
    }

    static ApiException notFound(String message) {
        return new ApiException(HttpResponseStatus.NOT_FOUND, message);
    }
}
