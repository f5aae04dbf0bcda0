package io.argus.perf.floor;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;

/**
 * A Java agent with one class-file transformer that changes nothing: what the JVM charges any agent that transforms
 * classes (every class it loads, those it maps from its CDS archive included, is handed to Java first). The
 * {@code transformer-floor} scenario runs it, packed by {@link TransformerFloorJar}.
 */
public final class TransformerFloorAgent {

    private TransformerFloorAgent() {
    }

    public static void premain(String args, Instrumentation inst) {
        inst.addTransformer(new NoChange(), true);
    }

    /** Sees every class, changes none. */
    static final class NoChange implements ClassFileTransformer {
        @Override
        public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
                                ProtectionDomain protectionDomain, byte[] classfileBuffer) {
            return null;
        }
    }
}
