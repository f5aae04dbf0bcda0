package io.argus.perf.spring;

import org.springframework.data.jpa.repository.JpaRepository;

/** The clinic's pettypes, a Spring Data JPA repository. */
interface PetTypes extends JpaRepository<PetType, Long> {
}
