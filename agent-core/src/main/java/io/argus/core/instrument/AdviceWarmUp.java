package io.argus.core.instrument;

import io.argus.core.plugin.Probes;
import io.argus.core.plugin.TypeProbe;
import net.bytebuddy.asm.Advice;

import static net.bytebuddy.matcher.ElementMatchers.named;

/**
 * One weave of a class of the agent's own, on the start-up thread, its result dropped: the first class the
 * application loads that a probe applies to then finds ByteBuddy's advice machinery loaded (and the start
 * gate releases it sooner), instead of paying for it on the application's thread. The advice uses the
 * parameter kinds the plugins use most.
 */
final class AdviceWarmUp {

    private AdviceWarmUp() {
    }

    static TypeProbe probe() {
        return new Probes("warm-up", null).type(Target.class.getName())
                .advise(named("call"), WarmUpAdvice.class.getName());
    }

    /** The class woven. */
    static final class Target {
        private long field;

        String call(String argument, int count) {
            return argument + count + field;
        }
    }

    /** The advice woven into it. */
    static final class WarmUpAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static long enter(@Advice.This Object self, @Advice.Argument(0) String argument,
                          @Advice.Local("argusLocal") long local) {
            local = argument.length();
            return System.nanoTime();
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        static void exit(@Advice.Enter long start, @Advice.Return String result, @Advice.Thrown Throwable thrown,
                         @Advice.FieldValue("field") long field, @Advice.Local("argusLocal") long local) {
            if (thrown != null && result == null && field + local + start == 0) {
                throw new IllegalStateException();
            }
        }
    }
}
