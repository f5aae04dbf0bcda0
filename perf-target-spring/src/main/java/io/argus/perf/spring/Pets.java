package io.argus.perf.spring;

import org.springframework.data.jpa.repository.JpaRepository;

/** The clinic's pets, a Spring Data JPA repository. */
interface Pets extends JpaRepository<Pet, Long> {
}
