package io.argus.springboot.app;

import org.springframework.context.annotation.Lazy;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * A lazy bean with a {@code @Scheduled} method: it is created, and its method scheduled, inside the
 * request that first asks for it ({@code /api/reports/start}). Each run reads the database.
 */
@Lazy
@Component
public class ReportRefresher {

    private final OrdersRepository orders;

    public ReportRefresher(OrdersRepository orders) {
        this.orders = orders;
    }

    @Scheduled(fixedDelay = 1000)
    public void refresh() {
        orders.count();
    }
}
