package io.argus.springboot.app;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * The front service's {@code /api/orders/{id}} reads the order, asks the back service for stock
 * (RestClient) and price (RestTemplate, by item name: a path the agent's own id
 * normalising would leave as it is), and waits for the {@code @Async} audit call. The back
 * service answers the three.
 */
@RestController
public class OrdersController {

    private static final Logger LOG = LoggerFactory.getLogger(OrdersController.class);

    private final OrdersRepository orders;
    private final AuditClient audit;
    private final ObjectProvider<ReportRefresher> reports;
    private final String downstream;
    private final RestClient restClient = RestClient.create();
    private final RestTemplate restTemplate = new RestTemplate();

    public OrdersController(OrdersRepository orders, AuditClient audit, ObjectProvider<ReportRefresher> reports,
                            @Value("${app.downstream:}") String downstream) {
        this.orders = orders;
        this.audit = audit;
        this.reports = reports;
        this.downstream = downstream;
    }

    @GetMapping("/api/orders/{id}")
    public String order(@PathVariable("id") long id) throws Exception {
        LOG.info("order {}", id);
        String item = orders.item(id);
        if (downstream.isEmpty()) {
            return item;
        }
        String stock = restClient.get().uri(downstream + "/api/stock/{id}", id).retrieve().body(String.class);
        String price = restTemplate.getForObject(downstream + "/api/prices/{item}", String.class, item);
        String audited = audit.audit(id).get(10, TimeUnit.SECONDS);
        return item + " " + stock + " " + price + " " + audited;
    }

    @GetMapping("/api/stock/{id}")
    public String stock(@PathVariable("id") long id) {
        return "stock-" + id + "-of-" + orders.count();
    }

    @GetMapping("/api/prices/{item}")
    public String price(@PathVariable("item") String item) {
        return "price-" + item;
    }

    @GetMapping("/api/audit/{id}")
    public String audit(@PathVariable("id") long id) {
        return "audited-" + id;
    }

    /** Creates the lazy {@link ReportRefresher}, so that its {@code @Scheduled} method is scheduled from inside this request. */
    @GetMapping("/api/reports/start")
    public String startReports() {
        reports.getObject();
        return "started";
    }
}
