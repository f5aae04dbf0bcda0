package io.argus.bridge;

import io.argus.bridge.context.ContextHooks;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.state.ObjectField;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Advice in a class the agent defined from its class cache before it was ready waits for the recorders and
 * fields it needs, and only then. One test: what it checks is the JVM's one start-up.
 */
class EarlyDefinedAdviceTest {

    @Test
    void adviceWaitsForTheAgentOnlyWhileItDefinesClassesEarly() throws Exception {
        // no class defined early: nothing waits, the hooks do nothing
        assertThat(CompletableFuture.supplyAsync(TraceContext::current).get(5, TimeUnit.SECONDS)).isNull();

        Thread startThread = Thread.currentThread();
        AgentStatus.definesClassesEarly(startThread);
        assertThat(TraceContext.current()).as("the start-up thread never waits").isNull();
        CompletableFuture<Object> advice = CompletableFuture.supplyAsync(TraceContext::current);
        CompletableFuture<ObjectField<Object>> helper = CompletableFuture.supplyAsync(() -> ObjectField.named("test.early"));
        Thread.sleep(200);
        assertThat(advice).isNotDone();
        assertThat(helper).isNotDone();

        ObjectField.declare(new MapField("test.early"));
        TraceContext.install(contextHooksWhoseCurrentIs("the context"));
        AgentStatus.observingSince(System.currentTimeMillis());

        assertThat(advice.get(5, TimeUnit.SECONDS)).isEqualTo("the context");
        assertThat(helper.get(5, TimeUnit.SECONDS).name()).isEqualTo("test.early");
        assertThat(AgentStatus.isObserving()).isTrue();
    }

    private static ContextHooks contextHooksWhoseCurrentIs(Object context) {
        return (ContextHooks) Proxy.newProxyInstance(ContextHooks.class.getClassLoader(), new Class<?>[] {ContextHooks.class},
                (proxy, method, args) -> method.getName().equals("current") ? context : null);
    }

    private static final class MapField extends ObjectField<Object> {
        private final Map<Object, Object> values = new IdentityHashMap<>();

        MapField(String name) {
            super(name, 0);
        }

        @Override
        protected synchronized Object mappedGet(Object owner) {
            return values.get(owner);
        }

        @Override
        protected synchronized void mappedSet(Object owner, Object value) {
            values.put(owner, value);
        }

        @Override
        protected synchronized Object mappedRemove(Object owner) {
            return values.remove(owner);
        }
    }
}
