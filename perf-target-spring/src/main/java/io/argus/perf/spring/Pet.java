package io.argus.perf.spring;

import com.fasterxml.jackson.annotation.JsonIgnore;
import jakarta.persistence.CascadeType;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

@Entity
public class Pet {

    @Id
    @GeneratedValue
    private Long id;
    private String name;
    private LocalDate birthDate;
    @ManyToOne
    private PetType type;
    @ManyToOne
    @JsonIgnore
    private Owner owner;
    @OneToMany(mappedBy = "pet", cascade = CascadeType.ALL)
    @OrderBy("date")
    @JsonIgnore // served by /owners/{ownerId}/pets/{petId}/visits
    private List<Visit> visits = new ArrayList<>();

    protected Pet() {
    }

    Pet(String name, LocalDate birthDate, PetType type, Owner owner) {
        this.name = name;
        this.birthDate = birthDate;
        this.type = type;
        this.owner = owner;
    }

    public Long getId() {
        return id;
    }

    public String getName() {
        return name;
    }

    public LocalDate getBirthDate() {
        return birthDate;
    }

    public PetType getType() {
        return type;
    }

    public Owner getOwner() {
        return owner;
    }

    public List<Visit> getVisits() {
        return visits;
    }
}
