package io.argus.core.instrument;

import io.argus.core.config.AgentConfig;
import io.argus.core.config.AgentSettings;
import io.argus.core.plugin.Probes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.HashMap;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine reads a probe's advice class files when the probe first matches a class, not at
 * start-up; usable advice is then inlined, and a probe whose advice fails its check leaves the
 * class as it was.
 */
class CheckedAdviceTest {

    private static final String PKG = "io.argus.core.instrument.checked.";

    /** The agent's loader, as the engine sees it: records which advice class files are read. */
    private static final class RecordingAgentLoader extends ClassLoader {
        final List<String> adviceRead = new CopyOnWriteArrayList<>();

        RecordingAgentLoader(ClassLoader parent) {
            super(parent);
        }

        @Override
        public URL getResource(String name) {
            note(name);
            return super.getResource(name);
        }

        @Override
        public InputStream getResourceAsStream(String name) {
            note(name);
            return super.getResourceAsStream(name);
        }

        private void note(String name) {
            if (name.endsWith("Advice.class")) {
                adviceRead.add(name.substring(name.lastIndexOf('/') + 1));
            }
        }
    }

    /** Defines one class from the given bytes, its other classes from the test's loader. */
    private static final class TargetLoader extends ClassLoader {
        TargetLoader() {
            super(CheckedAdviceTest.class.getClassLoader());
        }

        Class<?> define(String name, byte[] bytes) {
            return defineClass(name, bytes, 0, bytes.length);
        }
    }

    @Test
    void adviceIsReadWhenItsProbeFirstMatchesAndRefusedAdviceLeavesTheClassAlone() throws Exception {
        Probes probes = new Probes("test", new AgentSettings(new AgentConfig(new Properties(), new HashMap<>(),
                new Properties())));
        probes.type(PKG + "Greeter").advise(named("greet"), PKG + "GreetAdvice");
        probes.type(PKG + "Counter").advise(named("next"), PKG + "UnsuppressedAdvice");
        RecordingAgentLoader agentLoader = new RecordingAgentLoader(getClass().getClassLoader());
        AdviceWeaver weaver = new AdviceWeaver(probes.probes(), agentLoader, new HelperInjector(agentLoader, null));
        assertThat(agentLoader.adviceRead).as("no advice class is read at start-up").isEmpty();

        TargetLoader app = new TargetLoader();
        byte[] greeter = weaver.weave(app, internal("Greeter"), null, null, classFile("Greeter"),
                probes.probes().subList(0, 1), new java.util.ArrayList<String>());
        assertThat(agentLoader.adviceRead).contains("GreetAdvice.class").doesNotContain("UnsuppressedAdvice.class");
        assertThat(greeter).isNotNull();
        Object advised = app.define(PKG + "Greeter", greeter).getConstructor().newInstance();
        assertThat(advised.getClass().getMethod("greet").invoke(advised)).isEqualTo("hello advised");

        byte[] counter = weaver.weave(app, internal("Counter"), null, null, classFile("Counter"),
                probes.probes().subList(1, 2), new java.util.ArrayList<String>());
        assertThat(agentLoader.adviceRead).contains("UnsuppressedAdvice.class");
        Object unchanged = app.define(PKG + "Counter", counter == null ? classFile("Counter") : counter)
                .getConstructor().newInstance();
        assertThat(unchanged.getClass().getMethod("next").invoke(unchanged)).as("refused advice is not inlined")
                .isEqualTo(1);
    }

    private static String internal(String simpleName) {
        return (PKG + simpleName).replace('.', '/');
    }

    private static byte[] classFile(String simpleName) throws IOException {
        try (InputStream in = CheckedAdviceTest.class.getClassLoader()
                .getResourceAsStream(internal(simpleName) + ".class")) {
            return in.readAllBytes();
        }
    }
}
