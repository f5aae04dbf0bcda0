package io.argus.springboot.app;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * A plain Spring Boot service, built unchanged against Boot 3.5 and 4.0: an MVC controller, JdbcTemplate
 * over HikariCP on H2, RestClient and RestTemplate with their default request factories, an {@code @Async}
 * method and {@code @Scheduled} ones. Two instances make a pair: the front one ({@code --app.downstream=
 * http://127.0.0.1:<port>}) calls the back one. The container is whichever the class path holds.
 */
@SpringBootApplication
@EnableAsync
@EnableScheduling
public class OrdersApp {

    public static void main(String[] args) {
        SpringApplication.run(OrdersApp.class, args);
    }
}
