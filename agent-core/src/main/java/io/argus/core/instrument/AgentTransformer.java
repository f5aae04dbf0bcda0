package io.argus.core.instrument;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.security.ProtectionDomain;

/**
 * What the start gate hands every class to once the agent is ready: first the owner classes' fields, then
 * the engine's advice on the result. One transformer, so that the JVM makes one call per class.
 */
public final class AgentTransformer implements ClassFileTransformer {

    private final ClassFileTransformer fields;
    private final ClassFileTransformer advice;

    public AgentTransformer(ClassFileTransformer fields, ClassFileTransformer advice) {
        this.fields = fields;
        this.advice = advice;
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
                            ProtectionDomain protectionDomain, byte[] classfileBuffer)
            throws IllegalClassFormatException {
        byte[] withFields = fields.transform(loader, className, classBeingRedefined, protectionDomain, classfileBuffer);
        byte[] woven = advice.transform(loader, className, classBeingRedefined, protectionDomain,
                withFields != null ? withFields : classfileBuffer);
        return woven != null ? woven : withFields;
    }
}
