package io.argus.plugin.jdkhttpserver;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Server spans and HTTP server metrics for the JDK's {@code com.sun.net.httpserver.HttpServer}.
 * The server passes every exchange through one link between the application's filters and its own
 * ({@code ServerImpl$Exchange$LinkHandler.handle}), once per request, on the thread that handles it.
 */
public final class JdkHttpServerPlugin implements ArgusPlugin {

    @Override
    public String name() {
        return "jdk-http-server";
    }

    @Override
    public void instrument(Probes probes) {
        probes.type("sun.net.httpserver.ServerImpl$Exchange$LinkHandler")
                .helpers("io.argus.plugin.jdkhttpserver.ExchangeHeaders")
                .advise(named("handle").and(takesArguments(1)), "io.argus.plugin.jdkhttpserver.HandleAdvice");
    }
}
