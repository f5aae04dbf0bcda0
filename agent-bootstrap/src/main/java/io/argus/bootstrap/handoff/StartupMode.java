package io.argus.bootstrap.handoff;

import java.util.Locale;

/**
 * How the agent starts ({@code argus.startup.mode}), decided once, in premain, and handed to the core.
 * <ul>
 *   <li>{@link #PARALLEL}, the default: premain registers the start gate and returns; the agent builds its
 *   engine on its own thread while the application starts, and a probed class that loads before the
 *   engine is ready waits for it. Every request is observed, from the first.</li>
 *   <li>{@link #PREMAIN}: premain returns only once every probe is in (also what a late attach does).</li>
 *   <li>{@link #DEFERRED}: the agent waits for a spare core before it builds anything, and classes that
 *   load meanwhile are instrumented afterwards: the application answers sooner, but what it serves before
 *   the agent is up (often its first seconds, longer on a busy machine) is not observed.</li>
 * </ul>
 */
public enum StartupMode {
    PARALLEL, PREMAIN, DEFERRED;

    public static final String KEY = "argus.startup.mode";
    /** The key this one replaced: {@code true} meant {@link #PREMAIN}, {@code false} {@link #DEFERRED}. */
    public static final String REPLACED_KEY = "argus.startup.waitForInstrumentation";

    public String settingValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mode the settings ask for, and what was wrong with them, if anything. */
    public static Decision decide(ConfigSources config) {
        String value = config.raw(KEY);
        if (value != null && !value.isEmpty()) {
            for (StartupMode mode : values()) {
                if (mode.settingValue().equalsIgnoreCase(value)) {
                    return new Decision(mode, null, null);
                }
            }
            return new Decision(PARALLEL, "invalid value '" + value + "' for " + KEY
                    + ": expected parallel, premain or deferred; using the default parallel", null);
        }
        String replaced = config.raw(REPLACED_KEY);
        if (replaced != null && !replaced.isEmpty()) {
            String v = replaced.toLowerCase(Locale.ROOT);
            if (v.equals("true") || v.equals("yes") || v.equals("on")) {
                return new Decision(PREMAIN, null, REPLACED_KEY + " is replaced by " + KEY + "; using " + KEY + "=premain");
            }
            if (v.equals("false") || v.equals("no") || v.equals("off")) {
                return new Decision(DEFERRED, null, REPLACED_KEY + " is replaced by " + KEY + "; using " + KEY + "=deferred");
            }
            return new Decision(PARALLEL, "invalid value '" + replaced + "' for " + REPLACED_KEY
                    + " (replaced by " + KEY + "): expected true or false; using the default parallel", null);
        }
        return new Decision(PARALLEL, null, null);
    }

    /** A late attach: the application runs already, so everything happens before agentmain returns. */
    public static Decision decideLateAttach() {
        return new Decision(PREMAIN, null, null);
    }

    /** {@code parallel} without the plugins' index: {@code premain}, and why. */
    public static Decision fallBackToPremain(Decision parallel, String why) {
        String error = why + "; starting in " + KEY + "=premain instead";
        return new Decision(PREMAIN, parallel.error == null ? error : parallel.error + "; " + error, parallel.warning);
    }

    /** A mode, and the one line to log about the settings that chose it: an error or a warning, or neither. */
    public static final class Decision {
        public final StartupMode mode;
        public final String error;
        public final String warning;

        Decision(StartupMode mode, String error, String warning) {
            this.mode = mode;
            this.error = error;
            this.warning = warning;
        }
    }
}
