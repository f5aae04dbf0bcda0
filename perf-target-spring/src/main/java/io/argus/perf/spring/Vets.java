package io.argus.perf.spring;

import org.springframework.data.jpa.repository.EntityGraph;
import org.springframework.data.jpa.repository.JpaRepository;

import java.util.List;

/** The clinic's vets, a Spring Data JPA repository. */
interface Vets extends JpaRepository<Vet, Long> {
    @EntityGraph(attributePaths = "specialties")
    List<Vet> findAllByOrderByLastName();
}
