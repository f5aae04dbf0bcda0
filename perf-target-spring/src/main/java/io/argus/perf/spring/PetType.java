package io.argus.perf.spring;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;

@Entity
public class PetType {

    @Id
    @GeneratedValue
    private Long id;
    private String name;

    protected PetType() {
    }

    PetType(String name) {
        this.name = name;
    }

    public Long getId() {
        return id;
    }

    public String getName() {
        return name;
    }
}
