package io.argus.perf.spring;

import org.springframework.data.jpa.repository.JpaRepository;

import java.util.List;

/** The clinic's visits, a Spring Data JPA repository. */
interface Visits extends JpaRepository<Visit, Long> {
    List<Visit> findByPetIdOrderByDate(Long petId);
}
