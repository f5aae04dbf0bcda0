package io.argus.core.instrument;

import io.argus.core.AgentLog;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.annotation.AnnotationDescription;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.pool.TypePool;

/**
 * Refuses advice that could let an exception reach the application: every advice method must
 * declare {@code suppress = Throwable.class}. Checked from the class file, without loading it.
 */
public final class AdviceChecks {

    private AdviceChecks() {
    }

    public static boolean isUsable(TypePool pool, String adviceClassName, String pluginName) {
        TypePool.Resolution resolution = pool.describe(adviceClassName);
        if (!resolution.isResolved()) {
            AgentLog.error("plugin " + pluginName + ": advice class " + adviceClassName + " not found; probe skipped");
            return false;
        }
        TypeDescription advice = resolution.resolve();
        boolean any = false;
        for (MethodDescription.InDefinedShape method : advice.getDeclaredMethods()) {
            for (AnnotationDescription annotation : method.getDeclaredAnnotations()) {
                String type = annotation.getAnnotationType().getName();
                boolean enter = type.equals(Advice.OnMethodEnter.class.getName());
                boolean exit = type.equals(Advice.OnMethodExit.class.getName());
                if (!enter && !exit) {
                    continue;
                }
                any = true;
                TypeDescription suppress = annotation.getValue("suppress").resolve(TypeDescription.class);
                if (!suppress.getName().equals(Throwable.class.getName())) {
                    AgentLog.error("plugin " + pluginName + ": " + adviceClassName + "." + method.getName()
                            + " must declare suppress = Throwable.class; probe skipped");
                    return false;
                }
            }
        }
        if (!any) {
            AgentLog.error("plugin " + pluginName + ": " + adviceClassName + " has no advice methods; probe skipped");
        }
        return any;
    }
}
