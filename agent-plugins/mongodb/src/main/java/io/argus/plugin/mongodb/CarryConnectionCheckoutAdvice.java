package io.argus.plugin.mongodb;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/** {@code DefaultConnectionPool.getAsync(operationContext, callback)}: a connection, possibly from the pool's own checkout thread; the callback carries the caller's context there. */
public final class CarryConnectionCheckoutAdvice {

    private CarryConnectionCheckoutAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(value = 1, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object callback) {
        callback = MongoContextCallback.wrap(callback);
    }
}
