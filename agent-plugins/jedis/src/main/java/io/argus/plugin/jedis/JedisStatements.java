package io.argus.plugin.jedis;

import io.argus.bridge.db.DatabaseCalls;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.args.Rawable;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;

/**
 * A traced command's statement. Jedis 4.x does not tell keys from values, so the command decides what
 * is shown: commands whose arguments are keys, fields, numbers or options show them all
 * ({@code MGET a b}, {@code EXPIRE k 60}); {@code MSET}, {@code HSET} and their kin show their keys and
 * fields and hide the values; {@code AUTH} and {@code HELLO} hide everything; every other command
 * shows its first argument (nearly always the key) and hides the rest ({@code SET user:42 ?}). A
 * helper class: defined in Jedis' class loader.
 */
public final class JedisStatements {

    private static final int MAX_ARGS = 33;
    private static final Set<String> ALL_SHOWN = new HashSet<String>(Arrays.asList(
            "GET", "GETDEL", "DEL", "UNLINK", "EXISTS", "TYPE", "TTL", "PTTL", "EXPIRE", "PEXPIRE", "EXPIREAT",
            "PEXPIREAT", "PERSIST", "INCR", "DECR", "INCRBY", "DECRBY", "INCRBYFLOAT", "MGET", "KEYS", "SCAN",
            "STRLEN", "HGET", "HMGET", "HDEL", "HEXISTS", "HGETALL", "HKEYS", "HVALS", "HLEN", "HINCRBY", "HSCAN",
            "LLEN", "LRANGE", "LPOP", "RPOP", "LINDEX", "LTRIM", "BLPOP", "BRPOP", "SCARD", "SMEMBERS", "SINTER",
            "SUNION", "SDIFF", "SPOP", "SRANDMEMBER", "SSCAN", "ZCARD", "ZRANGE", "ZREVRANGE", "ZRANGEBYSCORE",
            "ZREVRANGEBYSCORE", "ZCOUNT", "ZSCAN", "DBSIZE", "PING", "ECHO", "FLUSHDB", "FLUSHALL", "INFO",
            "SELECT", "MULTI", "EXEC", "DISCARD", "WATCH", "UNWATCH", "RENAME", "RENAMENX", "TIME", "SUBSCRIBE",
            "PSUBSCRIBE", "UNSUBSCRIBE", "PUNSUBSCRIBE", "XLEN", "XRANGE", "XREVRANGE", "PFCOUNT", "CLIENT"));
    /** Key (or field) and value pairs from the first argument on. */
    private static final Set<String> PAIRS = new HashSet<String>(Arrays.asList("MSET", "MSETNX"));
    /** A key, then field and value pairs. */
    private static final Set<String> KEY_THEN_PAIRS = new HashSet<String>(Arrays.asList("HSET", "HMSET", "HSETNX"));
    private static final Set<String> NONE_SHOWN = new HashSet<String>(Arrays.asList("AUTH", "HELLO", "MIGRATE"));

    private JedisStatements() {
    }

    public static String of(String operation, CommandArguments args) {
        int count = args.size() - 1; // the first is the command itself
        Object[] shown = new Object[Math.max(0, Math.min(count, MAX_ARGS))];
        Iterator<Rawable> it = args.iterator();
        if (it.hasNext()) {
            it.next();
        }
        for (int i = 0; i < shown.length && it.hasNext(); i++) {
            byte[] raw = it.next().getRaw();
            shown[i] = shows(operation, i) ? raw : null;
        }
        return DatabaseCalls.statement(operation, shown, Math.max(0, count));
    }

    /** Whether argument {@code index} (0: the first after the command) of {@code operation} is shown. */
    static boolean shows(String operation, int index) {
        if (ALL_SHOWN.contains(operation)) {
            return true;
        }
        if (NONE_SHOWN.contains(operation)) {
            return false;
        }
        if (PAIRS.contains(operation)) {
            return index % 2 == 0;
        }
        if (KEY_THEN_PAIRS.contains(operation)) {
            return index == 0 || index % 2 == 1;
        }
        return index == 0;
    }

    static String text(byte[] raw) {
        return raw == null ? "command" : new String(raw, StandardCharsets.UTF_8);
    }
}
