package io.argus.perf.harness.run;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Checks that a stored trace crosses the expected services with correct parent links. */
final class TraceChain {

    private TraceChain() {
    }

    /**
     * @param spans    the collector's span objects (spanId, parentSpanId, service, kind)
     * @param services the services in call order; the first one holds the root server span
     * @return null when the trace is complete, else what is wrong
     */
    static String problem(JsonNode spans, List<String> services) {
        Map<String, JsonNode> byId = new HashMap<>();
        for (JsonNode s : spans) {
            byId.put(s.path("spanId").asText(), s);
        }
        JsonNode root = null;
        for (JsonNode s : spans) {
            String parent = s.path("parentSpanId").asText("");
            if (parent.isEmpty() || parent.matches("0+")) {
                if (root != null) {
                    return "two root spans (" + describe(root) + ", " + describe(s) + ")";
                }
                root = s;
            } else if (!byId.containsKey(parent)) {
                return describe(s) + " has parent " + parent + ", which is not in the trace";
            }
        }
        if (root == null) {
            return "no root span";
        }
        if (!root.path("service").asText().equals(services.get(0)) || !isKind(root, "SERVER")) {
            return "the root is " + describe(root) + ", not a server span of " + services.get(0);
        }
        for (int i = 1; i < services.size(); i++) {
            String caller = services.get(i - 1);
            String callee = services.get(i);
            boolean linked = false;
            for (JsonNode s : spans) {
                if (s.path("service").asText().equals(callee) && isKind(s, "SERVER")) {
                    JsonNode parent = byId.get(s.path("parentSpanId").asText(""));
                    if (parent != null && parent.path("service").asText().equals(caller) && isKind(parent, "CLIENT")) {
                        linked = true;
                        break;
                    }
                }
            }
            if (!linked) {
                return "no server span of " + callee + " whose parent is a client span of " + caller;
            }
        }
        return null;
    }

    private static boolean isKind(JsonNode span, String kind) {
        return span.path("kind").asText("").equalsIgnoreCase(kind);
    }

    private static String describe(JsonNode s) {
        return s.path("service").asText() + " " + s.path("kind").asText() + " '" + s.path("name").asText() + "'";
    }
}
