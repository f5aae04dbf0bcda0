package io.argus.plugin.reactor;

import io.argus.bridge.context.TraceContext;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.CoreSubscriber;
import reactor.core.Scannable;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Operators;
import reactor.core.scheduler.Schedulers;

/**
 * Registers, once per Reactor, the two hooks that carry the trace context through reactive chains. A helper class.
 *
 * <ul>
 *   <li>Which operators: one assembled while a trace is current on the assembling thread (a request's handler
 *       builds its chain there); one assembled untraced is left as Reactor made it, so an untraced request's
 *       chain allocates nothing more and keeps Reactor's fusion.</li>
 *   <li>Which context: the one current when the operator is subscribed; when none is (a subscription on a
 *       scheduler's thread), the one its downstream subscriber carries in Reactor's own {@code Context} under
 *       {@link #KEY} ({@link TracingSubscriber#currentContext}).</li>
 *   <li>Scheduled tasks: wrapped with the context current when they are scheduled ({@code TraceContext.wrap}:
 *       the task itself when there is none).</li>
 * </ul>
 */
public final class ReactorContext {
    /** The hooks' key, and the key of the trace context in a subscriber's Reactor {@code Context}. */
    public static final String KEY = "io.argus.trace";
    private static volatile boolean registered;

    private ReactorContext() {
    }

    public static void ensureRegistered() {
        if (!registered) {
            register();
        }
    }

    /** After an application reset Reactor's hooks: register again at the next assembly. */
    public static void reset() {
        registered = false;
    }

    private static synchronized void register() {
        if (registered) {
            return;
        }
        registered = true;
        Hooks.onEachOperator(KEY, new OnEachOperator());
        Schedulers.onScheduleHook(KEY, new OnSchedule());
    }

    /** The trace context for a subscription: current on this thread, else carried by the downstream subscriber. */
    static Object contextFor(CoreSubscriber<?> downstream) {
        Object context = TraceContext.current();
        if (context == null) {
            context = downstream.currentContext().getOrDefault(KEY, null);
        }
        return context;
    }

    /** Lifts an operator assembled while a trace is current. */
    static final class OnEachOperator implements Function<Publisher<Object>, Publisher<Object>> {
        private final Function<? super Publisher<Object>, ? extends Publisher<Object>> lift = Operators.lift(new Lifter());

        @Override
        public Publisher<Object> apply(Publisher<Object> publisher) {
            return TraceContext.current() == null ? publisher : lift.apply(publisher);
        }
    }

    /** At subscription: the downstream subscriber behind a {@link TracingSubscriber} when there is a context. */
    static final class Lifter implements BiFunction<Scannable, CoreSubscriber<? super Object>, CoreSubscriber<? super Object>> {
        @Override
        public CoreSubscriber<? super Object> apply(Scannable operator, CoreSubscriber<? super Object> downstream) {
            if (downstream instanceof TracingSubscriber) {
                return downstream;
            }
            Object context = contextFor(downstream);
            return context == null ? downstream : new TracingSubscriber<Object>(downstream, context);
        }
    }

    /** A task scheduled while a trace is current runs with it. */
    static final class OnSchedule implements Function<Runnable, Runnable> {
        @Override
        public Runnable apply(Runnable task) {
            return TraceContext.wrap(task);
        }
    }
}
