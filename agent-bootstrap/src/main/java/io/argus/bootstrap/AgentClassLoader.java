package io.argus.bootstrap;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLConnection;
import java.net.URLStreamHandler;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;

/**
 * Loads the agent core and the plugins from their jars. Its parent is the platform (Java 9+) or extension
 * (Java 8) loader, so the agent never sees the application's classes and the application never sees the
 * agent's shaded ByteBuddy or JCTools. The one exception is premain's hand-off package,
 * {@code io.argus.bootstrap.handoff}, which it takes from premain's own loader: premain and the core then share
 * the same classes for what one hands the other.
 *
 * <p>It reads its jars itself ({@link JarFile}, no {@code URLClassLoader}): its resources' URLs carry a handler
 * of its own. A {@code jar:} URL made the usual way goes to whatever handler the application registered for
 * the protocol (Spring Boot's launcher registers its own, whose classes the application may be loading, and
 * holding at the start gate, at that very moment); the agent's start-up must not wait on the application.
 */
final class AgentClassLoader extends ClassLoader {

    private static final String HANDOFF_PACKAGE = "io.argus.bootstrap.handoff.";
    private static final String OWN_RESOURCES = "io/argus/";

    static {
        ClassLoader.registerAsParallelCapable();
    }

    private final List<Jar> jars = new ArrayList<Jar>();

    /**
     * @param files the core's jar first, opened now (an error if it cannot be); the others (the plugins) are
     *              opened when a class or resource is first looked for beyond the core, so that the core
     *              starts without waiting for them
     */
    AgentClassLoader(List<File> files) throws IOException {
        super(ClassLoader.getSystemClassLoader().getParent());
        for (File file : files) {
            jars.add(new Jar(file));
        }
        if (!jars.isEmpty() && jars.get(0).open() == null) {
            throw new IOException("cannot read " + files.get(0));
        }
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (name.startsWith(HANDOFF_PACKAGE)) {
            return AgentClassLoader.class.getClassLoader().loadClass(name);
        }
        return super.loadClass(name, resolve);
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        String path = name.replace('.', '/') + ".class";
        for (Jar jar : jars) {
            Jar.Opened opened = jar.open();
            ZipEntry entry = opened == null ? null : opened.file.getEntry(path);
            if (entry == null) {
                continue;
            }
            byte[] bytes;
            try {
                bytes = read(opened.file.getInputStream(entry), (int) entry.getSize());
            } catch (IOException e) {
                throw new ClassNotFoundException(name + " in " + opened.file.getName(), e);
            }
            definePackageOf(name, opened);
            return defineClass(name, bytes, 0, bytes.length, opened.domain);
        }
        throw new ClassNotFoundException(name);
    }

    private void definePackageOf(String className, Jar.Opened jar) {
        int dot = className.lastIndexOf('.');
        if (dot < 0) {
            return;
        }
        String pkg = className.substring(0, dot);
        synchronized (this) {
            if (getPackage(pkg) == null) {
                definePackage(pkg, null, null, null, jar.title, jar.version, jar.vendor, null);
            }
        }
    }

    /**
     * The agent's own resources ({@code io/argus/...}, a plugin's helper classes) from its jars first: the
     * parents never have them, and asking the platform and boot loaders first scans their modules, which
     * costs milliseconds on the first look-up, on whatever thread defines a helper.
     */
    @Override
    public URL getResource(String name) {
        if (name.startsWith(OWN_RESOURCES)) {
            URL own = findResource(name);
            if (own != null) {
                return own;
            }
        }
        return super.getResource(name);
    }

    @Override
    protected URL findResource(String name) {
        for (Jar jar : jars) {
            URL url = jar.url(name);
            if (url != null) {
                return url;
            }
        }
        return null;
    }

    @Override
    protected Enumeration<URL> findResources(String name) {
        List<URL> urls = new ArrayList<URL>(1);
        for (Jar jar : jars) {
            URL url = jar.url(name);
            if (url != null) {
                urls.add(url);
            }
        }
        return Collections.enumeration(urls);
    }

    private static byte[] read(InputStream in, int size) throws IOException {
        if (size >= 0) {
            // the entry's size is known (always, for the agent's own jars): one array, no copies
            try {
                byte[] bytes = new byte[size];
                new DataInputStream(in).readFully(bytes);
                return bytes;
            } finally {
                in.close();
            }
        }
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
            byte[] buffer = new byte[8192];
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        } finally {
            in.close();
        }
    }

    @Override
    public String toString() {
        return "ArgusAgentClassLoader";
    }

    /** One jar, opened on first use: its entries, its manifest's implementation attributes, and the handler its resources' URLs use. */
    private final class Jar {
        private final File path;
        private volatile Opened opened;
        private boolean failed;

        Jar(File path) {
            this.path = path;
        }

        /** The jar, opened now if it was not; null (one line said why) if it cannot be read. */
        Opened open() {
            Opened jar = opened;
            if (jar != null) {
                return jar;
            }
            synchronized (this) {
                if (opened == null && !failed) {
                    try {
                        opened = new Opened(path);
                    } catch (IOException e) {
                        failed = true;
                        System.err.println("[argus] ERROR cannot read " + path + " (" + e + "); the agent goes without it");
                    }
                }
                return opened;
            }
        }

        URL url(String name) {
            Opened jar = open();
            return jar == null ? null : jar.url(name);
        }

        final class Opened {
            final JarFile file;
            final ProtectionDomain domain;
            final String title;
            final String version;
            final String vendor;
            private final String base;
            private final URLStreamHandler handler = new URLStreamHandler() {
                @Override
                protected URLConnection openConnection(URL url) throws IOException {
                    return new EntryConnection(url);
                }
            };

            Opened(File path) throws IOException {
                file = new JarFile(path, false);
                URL location = path.toURI().toURL();
                domain = new ProtectionDomain(new CodeSource(location, (Certificate[]) null), null, AgentClassLoader.this,
                        null);
                Manifest manifest = file.getManifest();
                Attributes main = manifest == null ? null : manifest.getMainAttributes();
                title = main == null ? null : main.getValue(Attributes.Name.IMPLEMENTATION_TITLE);
                version = main == null ? null : main.getValue(Attributes.Name.IMPLEMENTATION_VERSION);
                vendor = main == null ? null : main.getValue(Attributes.Name.IMPLEMENTATION_VENDOR);
                base = "jar:" + location + "!/";
            }

            URL url(String name) {
                if (file.getEntry(name) == null) {
                    return null;
                }
                try {
                    return new URL(null, base + name, handler);
                } catch (MalformedURLException e) {
                    return null;
                }
            }

            /** Reads an entry of this jar, whatever handler the application registered for {@code jar:}. */
            private final class EntryConnection extends URLConnection {
                private final String entry;

                EntryConnection(URL url) {
                    super(url);
                    entry = url.toString().substring(base.length());
                }

                @Override
                public void connect() {
                    connected = true;
                }

                @Override
                public InputStream getInputStream() throws IOException {
                    ZipEntry zip = file.getEntry(entry);
                    if (zip == null) {
                        throw new IOException(entry + " is not in " + file.getName());
                    }
                    return file.getInputStream(zip);
                }
            }
        }
    }
}
