package io.argus.plugin.mongodb;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/** {@code BaseCluster.selectServerAsync(selector, operationContext, callback)}: a server, possibly once the cluster's own thread has found one; the callback carries the caller's context there. */
public final class CarryServerSelectionAdvice {

    private CarryServerSelectionAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(value = 2, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object callback) {
        callback = MongoContextCallback.wrap(callback);
    }
}
