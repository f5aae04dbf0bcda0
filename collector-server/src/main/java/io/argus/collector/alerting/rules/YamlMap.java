package io.argus.collector.alerting.rules;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * One YAML mapping of the rules file, read key by key with the line of every value at hand, so that each error
 * names its line. Unknown keys are errors: a misspelt {@code for} must not silently mean "fire at once".
 */
final class YamlMap {
    private final String what;
    private final int line;
    private final Map<String, Node> values = new LinkedHashMap<>();

    private YamlMap(String what, int line) {
        this.what = what;
        this.line = line;
    }

    /** The mapping {@code node}, or an error naming {@code what} it should have been. */
    static YamlMap of(Node node, String what, Set<String> allowed) throws RuleFileException {
        if (!(node instanceof MappingNode mapping)) {
            throw new RuleFileException(line(node), what + " must be a mapping of key: value");
        }
        YamlMap map = new YamlMap(what, line(node));
        for (NodeTuple tuple : mapping.getValue()) {
            if (!(tuple.getKeyNode() instanceof ScalarNode key)) {
                throw new RuleFileException(line(tuple.getKeyNode()), "keys of " + what + " must be plain words");
            }
            if (!allowed.contains(key.getValue())) {
                throw new RuleFileException(line(key), "unknown key '" + key.getValue() + "' in " + what
                        + "; known: " + String.join(", ", allowed));
            }
            if (map.values.put(key.getValue(), tuple.getValueNode()) != null) {
                throw new RuleFileException(line(key), "key '" + key.getValue() + "' given twice in " + what);
            }
        }
        return map;
    }

    /** The 1-based line of {@code node}. */
    static int line(Node node) {
        return node.getStartMark() == null ? 0 : node.getStartMark().getLine() + 1;
    }

    int line() {
        return line;
    }

    /** The line of {@code key}'s value, or of the mapping when absent. */
    int line(String key) {
        Node n = values.get(key);
        return n == null ? line : line(n);
    }

    boolean has(String key) {
        return values.containsKey(key);
    }

    Node node(String key) {
        return values.get(key);
    }

    /** The text of a scalar, or {@code null} when absent or empty. */
    String string(String key) throws RuleFileException {
        Node n = values.get(key);
        if (n == null) {
            return null;
        }
        if (!(n instanceof ScalarNode scalar)) {
            throw new RuleFileException(line(n), "'" + key + "' in " + what + " must be a single value");
        }
        String v = scalar.getValue().strip();
        return v.isEmpty() || v.equals("~") || v.equals("null") ? null : v;
    }

    String required(String key) throws RuleFileException {
        String v = string(key);
        if (v == null) {
            throw new RuleFileException(line, what + " needs '" + key + "'");
        }
        return v;
    }

    /** A list of scalars; a single scalar counts as a list of one; absent is empty. */
    List<String> strings(String key) throws RuleFileException {
        Node n = values.get(key);
        if (n == null) {
            return List.of();
        }
        if (n instanceof ScalarNode) {
            String v = string(key);
            return v == null ? List.of() : List.of(v);
        }
        if (!(n instanceof SequenceNode seq)) {
            throw new RuleFileException(line(n), "'" + key + "' in " + what + " must be a list");
        }
        List<String> out = new ArrayList<>();
        for (Node item : seq.getValue()) {
            if (!(item instanceof ScalarNode s) || s.getValue().isBlank()) {
                throw new RuleFileException(line(item), "items of '" + key + "' in " + what
                        + " must be single values");
            }
            out.add(s.getValue().strip());
        }
        return out;
    }

    /** The mappings of a list; absent is empty. */
    List<Node> sequence(String key) throws RuleFileException {
        Node n = values.get(key);
        if (n == null || n instanceof ScalarNode s && s.getValue().isBlank()) {
            return List.of();
        }
        if (!(n instanceof SequenceNode seq)) {
            throw new RuleFileException(line(n), "'" + key + "' must be a list (items start with '- ')");
        }
        return seq.getValue();
    }

    long integer(String key, long absent, long min, long max) throws RuleFileException {
        String v = string(key);
        if (v == null) {
            return absent;
        }
        long parsed;
        try {
            parsed = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new RuleFileException(line(key), "'" + key + "' must be a whole number, got '" + v + "'");
        }
        if (parsed < min || parsed > max) {
            throw new RuleFileException(line(key), "'" + key + "' must be between " + min + " and " + max
                    + ", got " + parsed);
        }
        return parsed;
    }
}
