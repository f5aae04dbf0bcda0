package io.argus.perf.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;

import java.lang.management.ManagementFactory;

/**
 * The overhead suite's Spring Boot target: owners, their pets and the pets' visits, and the vets with their
 * specialties, in JPA entities on H2, served as JSON by Spring MVC controllers with templated routes.
 * {@code --server.port=N} chooses the port. Once ready it prints {@code PetClinic started @<ms>ms}, the JVM's
 * uptime, as Jetty does, for the overhead suite's start-up report.
 */
@SpringBootApplication
public class PetClinicApp {

    public static void main(String[] args) {
        SpringApplication.run(PetClinicApp.class, args);
    }

    @EventListener(ApplicationReadyEvent.class)
    void ready() {
        System.out.println("PetClinic started @" + ManagementFactory.getRuntimeMXBean().getUptime() + "ms");
    }
}
