package io.argus.perf.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The overhead suite's Spring Boot target: owners, their pets and the pets' visits, and the vets with their
 * specialties, in JPA entities on H2, served as JSON by Spring MVC controllers with templated routes.
 * {@code --server.port=N} chooses the port.
 */
@SpringBootApplication
public class PetClinicApp {

    public static void main(String[] args) {
        SpringApplication.run(PetClinicApp.class, args);
    }
}
