package io.argus.perf.spring;

import org.springframework.data.jpa.repository.JpaRepository;

/** The clinic's specialties, a Spring Data JPA repository. */
interface Specialties extends JpaRepository<Specialty, Long> {
}
