package io.argus.distribution;

import io.argus.distribution.apps.BundledLibrariesApp;
import io.argus.distribution.apps.ClassVisibilityApp;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import static org.assertj.core.api.Assertions.assertThat;

/** The application never sees the agent's libraries, and its own versions of them keep working. */
class IsolationIT {

    private static final String[] AGENT_CLASSES = {
            "io.argus.shaded.net.bytebuddy.ByteBuddy",
            "io.argus.shaded.org.jctools.queues.atomic.MpscAtomicArrayQueue",
            "io.argus.core.AgentRuntime",
            "io.argus.plugin.jetty.JettyPlugin",
            "net.bytebuddy.ByteBuddy",
            "io.netty.channel.Channel",
            "com.google.protobuf.Message",
    };

    private static String testClasses() {
        return Paths.get(System.getProperty("argus.home")).getParent().resolve("test-classes").toString();
    }

    @Test
    void agentLibrariesCannotBeLoadedByTheApplication() {
        try (TestCollector collector = TestCollector.start();
             AgentApp app = AgentApp.builder(ClassVisibilityApp.class.getName())
                     .classpath(testClasses())
                     .collector(collector.ingestPort()).samplingRate(100).service("visibility")
                     .args(AGENT_CLASSES).args("io.argus.bridge.server.ServerCalls")
                     .withTestingApp().jvmArg("-Dawait.agent=true").jvmArg("-Dstay.ms=30000")
                     .start()) {
            app.awaitLine("^DONE$", Duration.ofSeconds(90));
            app.awaitLine("\\[argus\\] Argus", Duration.ofSeconds(30));
            for (String name : AGENT_CLASSES) {
                assertThat(app.output()).contains("CLASS " + name + " HIDDEN");
            }
            // the bridge alone is on the bootstrap path, by design: advice in any class loader calls it
            assertThat(app.output()).contains("CLASS io.argus.bridge.server.ServerCalls VISIBLE");
        }
    }

    @Test
    void agentBundlesNoNetty() throws IOException {
        // the collector connection is a plain NIO socket: Netty cost ~400 loaded classes per start
        try (ZipFile core = new ZipFile(Paths.get(System.getProperty("argus.agent.dir"), "lib", "argus-core.jar").toFile())) {
            assertThat(core.stream().map(ZipEntry::getName).filter(name -> name.contains("netty")))
                    .isEmpty();
            assertThat(core.getEntry("io/argus/core/export/CollectorConnection.class")).isNotNull();
        }
    }

    @Test
    void applicationWithItsOwnNettyAndProtobufWorks() throws IOException {
        String libs;
        try (Stream<Path> jars = Files.list(Paths.get(System.getProperty("argus.home")).getParent().resolve("isolation-libs"))) {
            libs = jars.map(Path::toString).sorted().collect(Collectors.joining(File.pathSeparator));
        }
        try (TestCollector collector = TestCollector.start();
             AgentApp app = AgentApp.builder(BundledLibrariesApp.class.getName())
                     .classpath(testClasses() + File.pathSeparator + libs)
                     .collector(collector.ingestPort()).samplingRate(100).service("bundled")
                     .jvmArg("-Dstay.ms=3000")
                     .start()) {
            app.awaitLine("^DONE$", Duration.ofSeconds(30));
            assertThat(app.output()).contains("NETTY 4.1.118.Final").contains("protobuf-java-3.21.9.jar")
                    .contains("ECHO hello");
            // meanwhile the agent's own connection (plain NIO, no Netty) reached the collector
            CollectorClient.await("agent handshake", Duration.ofSeconds(20), collector.client()::agents,
                    agents -> agents.toString().contains("bundled"));
        }
    }
}
