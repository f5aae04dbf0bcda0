package com.example.lib;

/** The library type the fixture plugin's advice is compiled against: it has what version 2 of the library has. */
public class Server {

    public void handle() {
    }

    public void gone() {
    }
}
