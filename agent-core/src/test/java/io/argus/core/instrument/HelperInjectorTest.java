package io.argus.core.instrument;

import org.junit.jupiter.api.Test;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Helper classes are read from the agent's loader (here: the test class path) and defined in other
 * loaders that cannot see them otherwise. Runs with java.lang opened to the test's module (surefire
 * argLine); in the agent, {@link ModuleReads#openToAgent} opens it through Instrumentation.
 */
class HelperInjectorTest {

    private static final String BASE = "io.argus.core.instrument.helpers.GreetingBase";
    private static final String GREETING = "io.argus.core.instrument.helpers.Greeting";
    private static final String CALLBACK = "io.argus.core.instrument.helpers.LibraryCallback";

    private final HelperInjector injector = new HelperInjector(getClass().getClassLoader(), null);

    /** A loader that sees only the JDK: the test's own classes are invisible to it. */
    private static ClassLoader isolated(String name) {
        return new URLClassLoader(name, new URL[0], ClassLoader.getPlatformClassLoader());
    }

    @Test
    @SuppressWarnings("unchecked")
    void helpersBecomeClassesOfTheTargetLoaderOncePerLoader() throws Exception {
        ClassLoader app = isolated("app-1");
        assertThatThrownBy(() -> app.loadClass(GREETING)).isInstanceOf(ClassNotFoundException.class);

        // the subtype is listed first: it is defined in a second pass, once its super class exists
        injector.inject(app, null, List.of(GREETING, BASE));
        Class<?> greeting = app.loadClass(GREETING);
        assertThat(greeting.getClassLoader()).isSameAs(app);
        assertThat(greeting.getSuperclass().getClassLoader()).isSameAs(app);
        assertThat(((Supplier<String>) greeting.getField("INSTANCE").get(null)).get()).isEqualTo("hello from app-1");

        injector.inject(app, null, List.of(GREETING, BASE));
        assertThat(app.loadClass(GREETING)).as("not defined twice").isSameAs(greeting);

        ClassLoader other = isolated("app-2");
        injector.inject(other, null, List.of(BASE, GREETING));
        assertThat(other.loadClass(GREETING)).isNotSameAs(greeting);
        assertThat(other.loadClass(GREETING).getClassLoader()).isSameAs(other);
    }

    @Test
    void aHelperIsDefinedWhereItsLibraryTypesAreVisible() throws Exception {
        // the library interface comes from this loader's parent, as in an application
        ClassLoader library = getClass().getClassLoader();
        ClassLoader app = new URLClassLoader("app", new URL[0], library);
        injector.inject(app, null, List.of(CALLBACK));
        Class<?> callback = app.loadClass(CALLBACK);
        assertThat(callback.getClassLoader()).isSameAs(app);
        Object instance = callback.getConstructor().newInstance();
        assertThat(((io.argus.core.instrument.helpers.LibraryApi) instance).call()).isEqualTo("called");
    }

    @Test
    void aHelperWhoseLibraryIsMissingFailsAndIsNotRecordedAsDefined() {
        ClassLoader noLibrary = isolated("no-library");
        assertThatThrownBy(() -> injector.inject(noLibrary, null, List.of(CALLBACK)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(CALLBACK)
                .hasCauseInstanceOf(NoClassDefFoundError.class)
                .hasRootCauseMessage("io.argus.core.instrument.helpers.LibraryApi");
        // still absent: a later attempt tries again instead of assuming success
        assertThatThrownBy(() -> injector.inject(noLibrary, null, List.of(CALLBACK))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void missingClassFilesAndTheBootLoaderAreRefused() {
        assertThat(injector.exist(List.of(GREETING, BASE), "test")).isTrue();
        assertThat(injector.exist(List.of(GREETING, "io.argus.core.instrument.helpers.Absent"), "test")).isFalse();
        assertThatThrownBy(() -> injector.inject(isolated("x"), null, List.of("io.argus.core.instrument.helpers.Absent")))
                .hasMessageContaining("not found");
        assertThatThrownBy(() -> injector.inject(null, null, List.of(GREETING)))
                .hasMessageContaining("boot class loader");
    }

    @Test
    void threadsRacingForOneLoaderGetOneClass() throws Exception {
        ClassLoader app = isolated("raced");
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Class<?>>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                results.add(pool.submit(() -> {
                    start.await();
                    injector.inject(app, null, Arrays.asList(BASE, GREETING));
                    return app.loadClass(GREETING);
                }));
            }
            start.countDown();
            Class<?> first = results.get(0).get();
            for (Future<Class<?>> result : results) {
                assertThat(result.get()).isSameAs(first);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
