package io.argus.springboot.app;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Async;
import org.springframework.stereotype.Service;
import org.springframework.web.client.RestClient;

import java.util.concurrent.CompletableFuture;

/** Tells the back service about an order, on the task executor Boot gives {@code @Async} methods. */
@Service
public class AuditClient {

    private final RestClient rest = RestClient.create();
    private final String downstream;

    public AuditClient(@Value("${app.downstream:}") String downstream) {
        this.downstream = downstream;
    }

    @Async
    public CompletableFuture<String> audit(long id) {
        String answer = rest.get().uri(downstream + "/api/audit/{id}", id).retrieve().body(String.class);
        return CompletableFuture.completedFuture(answer + "@" + Thread.currentThread().getName());
    }
}
