package io.argus.perf.spring;

import org.springframework.http.ResponseEntity;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/** The clinic's JSON API: owners and their pets, a pet's visits, the vets. */
@RestController
class ClinicController {

    private final Owners owners;
    private final Pets pets;
    private final Visits visits;
    private final Vets vets;

    ClinicController(Owners owners, Pets pets, Visits visits,
                     Vets vets) {
        this.owners = owners;
        this.pets = pets;
        this.visits = visits;
        this.vets = vets;
    }

    @GetMapping("/owners")
    List<Map<String, Object>> owners(@RequestParam(defaultValue = "") String lastName) {
        return owners.findByLastNameStartingWithOrderByLastName(lastName).stream()
                .map(o -> Map.<String, Object>of("id", o.getId(), "name", o.getFirstName() + " " + o.getLastName(),
                        "city", o.getCity()))
                .toList();
    }

    @GetMapping("/owners/{ownerId}")
    @Transactional(readOnly = true)
    ResponseEntity<Owner> owner(@PathVariable long ownerId) {
        return ResponseEntity.of(owners.findWithPetsById(ownerId));
    }

    @GetMapping("/owners/{ownerId}/pets/{petId}/visits")
    List<Visit> visits(@PathVariable long ownerId, @PathVariable long petId) {
        return visits.findByPetIdOrderByDate(petId);
    }

    @PostMapping("/owners/{ownerId}/pets/{petId}/visits")
    @Transactional
    ResponseEntity<Visit> addVisit(@PathVariable long ownerId, @PathVariable long petId,
                                   @RequestParam(defaultValue = "check-up") String description) {
        return pets.findById(petId)
                .filter(p -> p.getOwner().getId() == ownerId)
                .map(p -> ResponseEntity.ok(visits.save(new Visit(LocalDate.now(), description, p))))
                .orElse(ResponseEntity.notFound().build());
    }

    @GetMapping("/vets")
    List<Vet> vets() {
        return vets.findAllByOrderByLastName();
    }
}
