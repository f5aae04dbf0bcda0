package io.argus.core.instrument;

import io.argus.bridge.state.FieldOwner;
import io.argus.bridge.state.LongField;
import io.argus.bridge.state.ObjectField;
import io.argus.core.plugin.Probes;
import io.argus.core.state.FieldRegistry;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.loading.ByteArrayClassLoader;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The real fields an owner class gets as it loads, and the accessors the bridge reaches them through. */
class FieldInjectionTest {

    public static class Request {
        public String path = "/";
    }

    public static class Subrequest extends Request {
    }

    public static class SerializableRequest implements Serializable {
    }

    private final FieldRegistry registry = new FieldRegistry(new AtomicLong());

    FieldInjectionTest() {
        Probes probes = new Probes("test", null);
        probes.field(Request.class.getName(), "inject.span")
                .field(Request.class.getName(), "inject.other")
                .longField(Request.class.getName(), "inject.start")
                .field(SerializableRequest.class.getName(), "inject.span")
                .field("com.example.Unrelated", "inject.elsewhere");
        registry.declare(probes.fields());
    }

    private byte[] injected(Class<?> type) {
        byte[] original = ClassFiles.read(type.getClassLoader(), ClassFiles.resourceName(type.getName()));
        byte[] injected = new FieldInjection(registry.owners().get(type.getName()))
                .inject(type.getName().replace('.', '/'), original, FieldInjection.isSerializable(type.getClassLoader(),
                        type.getName().replace('.', '/'), original, new SuperTypeWalk()));
        return injected == null ? original : injected;
    }

    private Class<?> inject(Class<?> type) throws ClassNotFoundException {
        Map<String, byte[]> types = new HashMap<>();
        types.put(type.getName(), injected(type));
        return new ByteArrayClassLoader.ChildFirst(getClass().getClassLoader(), types).loadClass(type.getName());
    }

    @Test
    void declaredFieldsBecomeRealFieldsOfTheObject() throws Exception {
        Class<?> injected = inject(Request.class);
        assertThat(FieldOwner.class).isAssignableFrom(injected);
        Object request = injected.getConstructor().newInstance();
        ObjectField<String> span = ObjectField.named("inject.span");
        ObjectField<String> other = ObjectField.named("inject.other");
        LongField start = LongField.named("inject.start");

        span.set(request, "span");
        other.set(request, "other");
        start.set(request, 1234L);
        assertThat(realField(injected, "argus$o0").get(request)).isEqualTo("span");
        assertThat(realField(injected, "argus$o1").get(request)).isEqualTo("other");
        assertThat(realField(injected, "argus$l0").getLong(request)).isEqualTo(1234L);
        assertThat(span.get(request)).isEqualTo("span");
        assertThat(start.remove(request)).isEqualTo(1234L);
        assertThat(start.get(request)).isZero();
        assertThat(span.remove(request)).isEqualTo("span");
        assertThat(realField(injected, "argus$o0").get(request)).isNull();

        // a field declared on another class only: this object keeps it in the map
        ObjectField<String> elsewhere = ObjectField.named("inject.elsewhere");
        elsewhere.set(request, "mapped");
        assertThat(elsewhere.get(request)).isEqualTo("mapped");
        assertThat(((FieldOwner) request).argus$getObject(99)).isSameAs(FieldOwner.ABSENT);
        assertThat(((FieldOwner) request).argus$getLong(99)).isEqualTo(FieldOwner.ABSENT_LONG);
        assertThat(realField(injected, "argus$o0").getModifiers() & java.lang.reflect.Modifier.TRANSIENT).isNotZero();
    }

    @Test
    void anUndeclaredSubclassInheritsTheFields() throws Exception {
        // the owner with its fields, and its subclass unchanged, in one loader
        Map<String, byte[]> types = new HashMap<>();
        types.put(Request.class.getName(), injected(Request.class));
        types.put(Subrequest.class.getName(),
                ClassFileLocator.ForClassLoader.read(Subrequest.class));
        ClassLoader loader = new ByteArrayClassLoader.ChildFirst(getClass().getClassLoader(), types);
        Class<?> injected = loader.loadClass(Request.class.getName());
        Object request = loader.loadClass(Subrequest.class.getName()).getConstructor().newInstance();
        ObjectField.<String>named("inject.span").set(request, "sub");
        assertThat(realField(injected, "argus$o0").get(request)).isEqualTo("sub");
    }

    @Test
    void aSerializableClassWithoutItsOwnSerialVersionUidIsLeftAlone() throws Exception {
        Class<?> injected = inject(SerializableRequest.class);
        assertThat(FieldOwner.class.isAssignableFrom(injected)).isFalse();
        Object request = injected.getConstructor().newInstance();
        ObjectField<String> span = ObjectField.named("inject.span");
        span.set(request, "mapped");
        assertThat(span.get(request)).isEqualTo("mapped");
    }

    private static Field realField(Class<?> type, String name) throws NoSuchFieldException {
        Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }
}
