package io.argus.springboot.app;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** A {@code @Scheduled} method scheduled at start-up: each run reads the database. */
@Component
public class Heartbeat {

    private final OrdersRepository orders;

    public Heartbeat(OrdersRepository orders) {
        this.orders = orders;
    }

    @Scheduled(fixedDelay = 2000, initialDelay = 500)
    public void beat() {
        orders.count();
    }
}
