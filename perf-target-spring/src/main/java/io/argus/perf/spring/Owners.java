package io.argus.perf.spring;

import org.springframework.data.jpa.repository.EntityGraph;
import org.springframework.data.jpa.repository.JpaRepository;

import java.util.List;
import java.util.Optional;

/** The clinic's owners, a Spring Data JPA repository. */
interface Owners extends JpaRepository<Owner, Long> {
    List<Owner> findByLastNameStartingWithOrderByLastName(String prefix);

    @EntityGraph(attributePaths = {"pets", "pets.type"})
    Optional<Owner> findWithPetsById(Long id);
}
