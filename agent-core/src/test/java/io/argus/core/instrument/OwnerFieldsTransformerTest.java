package io.argus.core.instrument;

import io.argus.bridge.state.FieldOwner;
import io.argus.core.plugin.Probes;
import io.argus.core.state.FieldRegistry;
import net.bytebuddy.dynamic.loading.ByteArrayClassLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The owner classes get their fields as they load, and keep exactly those when retransformed; a class
 * that loaded without them (before the agent) gets none on a retransformation, which could not add them.
 */
class OwnerFieldsTransformerTest {

    public static class Exchange {
    }

    public static class Unrelated {
    }

    private static final String EXCHANGE = Exchange.class.getName().replace('.', '/');

    private final OwnerFieldsTransformer transformer = ownerFields();

    @TempDir
    File dir;

    private static OwnerFieldsTransformer ownerFields() {
        FieldRegistry registry = new FieldRegistry(new AtomicLong());
        Probes probes = new Probes("test", null);
        probes.field(Exchange.class.getName(), "owners.span").longField(Exchange.class.getName(), "owners.start");
        registry.declare(probes.fields());
        return OwnerFieldsTransformer.forTest(new ClassLoader(null) {
        }, registry.owners());
    }

    private static byte[] classFile(Class<?> type) {
        return ClassFiles.read(type.getClassLoader(), ClassFiles.resourceName(type.getName()));
    }

    @Test
    void anOwnerGetsItsFieldsAsItLoadsAndAgainWhenRetransformed() throws Exception {
        ClassLoader app = getClass().getClassLoader();
        byte[] loaded = transformer.transform(app, EXCHANGE, null, null, classFile(Exchange.class));
        assertThat(loaded).isNotNull();
        Class<?> withFields = new ByteArrayClassLoader.ChildFirst(app, Map.of(Exchange.class.getName(), loaded))
                .loadClass(Exchange.class.getName());
        assertThat(FieldOwner.class).isAssignableFrom(withFields);

        byte[] again = transformer.transform(app, EXCHANGE, withFields, null, classFile(Exchange.class));
        assertThat(again).as("the same fields, added to the original bytes a retransformation starts from")
                .isEqualTo(loaded);
    }

    @Test
    void aClassThatLoadedWithoutFieldsGetsNoneLaterAndOthersAreLeftAlone() {
        ClassLoader app = getClass().getClassLoader();
        assertThat(transformer.transform(app, EXCHANGE, Exchange.class, null, classFile(Exchange.class)))
                .as("loaded before the agent: a retransformation cannot add fields").isNull();
        assertThat(transformer.transform(app, Unrelated.class.getName().replace('.', '/'), null, null,
                classFile(Unrelated.class))).isNull();
    }

    @Test
    void aRestartTakesTheFieldsFromTheClassCacheAndTheGatesEarlyLookUpNeverDoes() {
        ClassLoader app = getClass().getClassLoader();
        File root = new File(dir, "cache");
        WovenClassCache first = WovenClassCache.open(root, "build", "probes");
        transformer.useCache(first);
        byte[] made = transformer.transform(app, EXCHANGE, null, null, classFile(Exchange.class));
        assertThat(made).isNotNull();
        assertThat(first.stored()).isEqualTo(1);
        first.rememberConfiguration("configuration");

        WovenClassCache restarted = WovenClassCache.open(root, "build", "probes");
        assertThat(restarted.isWarm()).isTrue();
        OwnerFieldsTransformer next = ownerFields();
        next.useCache(restarted);
        assertThat(next.transform(app, EXCHANGE, null, null, classFile(Exchange.class))).isEqualTo(made);
        assertThat(restarted.hits()).as("taken from the cache, not made again").isEqualTo(1);
        assertThat(restarted.stored()).isZero();

        WovenClassCache early = WovenClassCache.openEarly(root, "build", "configuration");
        assertThat(early.isEnabled()).isTrue();
        assertThat(early.findAnyProbes(EXCHANGE, classFile(Exchange.class)))
                .as("the fields alone are not the class's woven form: the gate must not define it from them").isNull();
    }
}
