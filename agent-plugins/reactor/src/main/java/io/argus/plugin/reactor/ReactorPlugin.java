package io.argus.plugin.reactor;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Project Reactor: the trace context follows a reactive chain across operators and scheduler hops.
 *
 * <p>Reactor's own extension points carry it, registered once from the first operator assembled
 * ({@code Flux.onAssembly}, {@code Mono.onAssembly}, static methods every operator passes through), and again after an
 * application resets them ({@code Hooks.resetOnEachOperator}, {@code Schedulers.resetOnScheduleHooks}):
 * <ul>
 *   <li>{@code Hooks.onEachOperator}: an operator assembled while a trace is current subscribes through a
 *       {@link TracingSubscriber}, which makes the context current around each signal it passes down
 *       ({@code onSubscribe}, {@code onNext}, {@code onError}, {@code onComplete}) on whatever thread delivers it,
 *       and restores what was there after;</li>
 *   <li>{@code Schedulers.onScheduleHook}: a task scheduled while a trace is current ({@code subscribeOn},
 *       {@code publishOn}, delays) runs with it on the scheduler's thread.</li>
 * </ul>
 * See {@link ReactorContext} for the rules and the cost.
 */
public final class ReactorPlugin implements ArgusPlugin {

    private static final String P = "io.argus.plugin.reactor.";
    private static final String[] HELPERS = {P + "ReactorContext", P + "ReactorContext$OnEachOperator",
        P + "ReactorContext$Lifter", P + "ReactorContext$OnSchedule", P + "TracingSubscriber"};

    @Override
    public String name() {
        return "reactor";
    }

    @Override
    public void instrument(Probes probes) {
        for (String publisher : new String[] {"reactor.core.publisher.Flux", "reactor.core.publisher.Mono"}) {
            probes.type(publisher).helpers(HELPERS)
                    .advise(named("onAssembly").and(isStatic()).and(takesArguments(1)), P + "AssemblyAdvice");
        }
        probes.type("reactor.core.publisher.Hooks").helpers(HELPERS)
                .advise(named("resetOnEachOperator"), P + "HooksResetAdvice");
        probes.type("reactor.core.scheduler.Schedulers").helpers(HELPERS)
                .advise(named("resetOnScheduleHooks").or(named("resetOnScheduleHook")), P + "HooksResetAdvice");
    }
}
