package com.example.absent;

/** An application class named like a JDBC connection; see {@link LookalikeStatement}. */
public final class LookalikeConnection {
}
