package io.argus.plugin.lettuce;

import io.argus.bridge.db.DatabaseCalls;
import io.lettuce.core.protocol.CommandArgs;

import java.lang.reflect.Field;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A traced command's statement: Lettuce tells keys from values (its codec encodes them apart), so the
 * keys, options and numbers are shown and every value is hidden ({@code SET user:42 ? EX 60}). The
 * arguments are read from {@code CommandArgs}' list by reflection, found once per argument class; any
 * surprise shows the command alone. A helper class: defined in Lettuce's class loader.
 */
public final class LettuceStatements {

    private static final int MAX_ARGS = 33;
    private static final Field ARGUMENTS = field(CommandArgs.class, "singularArguments");
    /** Per argument class, the field holding what to show of it, or {@code HIDDEN} for classes whose values are hidden. */
    private static final ConcurrentHashMap<Class<?>, Object> SHOWN = new ConcurrentHashMap<Class<?>, Object>();
    private static final Object HIDDEN = new Object();

    private LettuceStatements() {
    }

    public static String of(String operation, CommandArgs<?, ?> args) {
        if (args == null || ARGUMENTS == null || operation.equals("AUTH") || operation.equals("HELLO")) {
            return args == null ? operation : DatabaseCalls.statement(operation, null, args.count());
        }
        try {
            List<?> list = (List<?>) ARGUMENTS.get(args);
            int count = list.size();
            Object[] shown = new Object[Math.min(count, MAX_ARGS)];
            for (int i = 0; i < shown.length; i++) {
                Object argument = list.get(i);
                Field value = argument == null ? null : shownField(argument.getClass());
                Object v = value == null ? null : value.get(argument);
                shown[i] = v instanceof io.lettuce.core.protocol.ProtocolKeyword
                        ? LettuceCommands.name((io.lettuce.core.protocol.ProtocolKeyword) v) : v;
            }
            return DatabaseCalls.statement(operation, shown, count);
        } catch (Throwable t) {
            return operation;
        }
    }

    private static Field shownField(Class<?> type) {
        Object known = SHOWN.get(type);
        if (known == null) {
            String name = type.getSimpleName();
            Field field = null;
            if (name.equals("KeyArgument")) {
                field = field(type, "key");
            } else if (name.equals("IntegerArgument") || name.equals("DoubleArgument") || name.equals("StringArgument")) {
                field = field(type, "val");
            } else if (name.equals("ProtocolKeywordArgument")) {
                field = field(type, "protocolKeyword");
            } // ValueArgument, BytesArgument, CharArrayArgument (passwords), and anything new stay hidden
            known = field != null ? field : HIDDEN;
            SHOWN.put(type, known);
        }
        return known instanceof Field ? (Field) known : null;
    }

    private static Field field(Class<?> type, String name) {
        try {
            Field f = type.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (Throwable t) {
            return null;
        }
    }
}
