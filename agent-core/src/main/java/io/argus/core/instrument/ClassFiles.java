package io.argus.core.instrument;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/** Reads class files as resources: the plugins' helpers from the agent's loader, super types from the application's. */
public final class ClassFiles {

    private ClassFiles() {
    }

    /** The bytes of {@code resourceName} as {@code loader} (null: the boot and system path) finds it, or null. */
    static byte[] read(ClassLoader loader, String resourceName) {
        InputStream in = loader == null ? ClassLoader.getSystemResourceAsStream(resourceName)
                : loader.getResourceAsStream(resourceName);
        if (in == null) {
            return null;
        }
        try {
            return readAll(in);
        } catch (IOException e) {
            return null;
        }
    }

    /** Reads {@code in} to its end and closes it. */
    public static byte[] readAll(InputStream in) throws IOException {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) > 0) {
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        } finally {
            in.close();
        }
    }

    static String resourceName(String className) {
        return className.replace('.', '/') + ".class";
    }
}
