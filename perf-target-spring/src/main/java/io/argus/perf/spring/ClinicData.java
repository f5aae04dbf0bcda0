package io.argus.perf.spring;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import java.time.LocalDate;
import java.util.List;

/** The clinic's records, written at start-up: 10 owners with 13 pets and their visits, 6 vets. */
@Component
class ClinicData implements ApplicationRunner {

    private static final String[][] OWNERS = {
            {"George", "Franklin", "Madison"}, {"Betty", "Davis", "Sun Prairie"}, {"Eduardo", "Rodriquez", "McFarland"},
            {"Harold", "Davis", "Windsor"}, {"Peter", "McTavish", "Madison"}, {"Jean", "Coleman", "Monona"},
            {"Jeff", "Black", "Monona"}, {"Maria", "Escobito", "Madison"}, {"David", "Schroeder", "Madison"},
            {"Carlos", "Estaban", "Waunakee"}};
    private static final String[] PETS = {"Leo", "Basil", "Rosy", "Jewel", "Iggy", "George", "Samantha", "Max", "Lucky",
            "Mulligan", "Freddy", "Lucky", "Sly"};

    private final Owners owners;
    private final PetTypes types;
    private final Vets vets;
    private final Specialties specialties;

    ClinicData(Owners owners, PetTypes types, Vets vets,
               Specialties specialties) {
        this.owners = owners;
        this.types = types;
        this.vets = vets;
        this.specialties = specialties;
    }

    @Override
    @Transactional
    public void run(ApplicationArguments args) {
        List<PetType> kinds = types.saveAll(List.of(new PetType("cat"), new PetType("dog"), new PetType("lizard"),
                new PetType("snake"), new PetType("bird"), new PetType("hamster")));
        for (int i = 0; i < OWNERS.length; i++) {
            Owner owner = new Owner(OWNERS[i][0], OWNERS[i][1], OWNERS[i][2], "60855" + (10000 + i));
            for (int p = i; p < PETS.length; p += OWNERS.length) {
                Pet pet = new Pet(PETS[p], LocalDate.of(2010 + p % 10, 1 + p % 12, 1 + p), kinds.get(p % kinds.size()), owner);
                pet.getVisits().add(new Visit(LocalDate.of(2025, 1 + p % 12, 2), "rabies shot", pet));
                owner.getPets().add(pet);
            }
            owners.save(owner);
        }
        List<Specialty> kinds2 = specialties.saveAll(List.of(new Specialty("radiology"), new Specialty("surgery"),
                new Specialty("dentistry")));
        String[][] names = {{"James", "Carter"}, {"Helen", "Leary"}, {"Linda", "Douglas"}, {"Rafael", "Ortega"},
                {"Henry", "Stevens"}, {"Sharon", "Jenkins"}};
        for (int i = 0; i < names.length; i++) {
            Vet vet = new Vet(names[i][0], names[i][1]);
            if (i > 0) {
                vet.getSpecialties().add(kinds2.get(i % kinds2.size()));
            }
            vets.save(vet);
        }
    }
}
