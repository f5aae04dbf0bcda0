package io.argus.perf.spring;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;

import java.util.ArrayList;
import java.util.List;

@Entity
public class Owner {

    @Id
    @GeneratedValue
    private Long id;
    private String firstName;
    private String lastName;
    private String city;
    private String telephone;
    @OneToMany(mappedBy = "owner", cascade = CascadeType.ALL)
    @OrderBy("name")
    private List<Pet> pets = new ArrayList<>();

    protected Owner() {
    }

    Owner(String firstName, String lastName, String city, String telephone) {
        this.firstName = firstName;
        this.lastName = lastName;
        this.city = city;
        this.telephone = telephone;
    }

    public Long getId() {
        return id;
    }

    public String getFirstName() {
        return firstName;
    }

    public String getLastName() {
        return lastName;
    }

    public String getCity() {
        return city;
    }

    public String getTelephone() {
        return telephone;
    }

    public List<Pet> getPets() {
        return pets;
    }
}
