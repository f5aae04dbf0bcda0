package com.example.absent;

/**
 * An application class named like a JDBC statement that implements nothing of JDBC: the jdbc
 * plugin's name hint lets it through to a hierarchy check, which must reject it. (Outside
 * {@code io.argus}, whose classes the agent never looks at.)
 */
public final class LookalikeStatement implements Runnable {
    @Override
    public void run() {
    }
}
