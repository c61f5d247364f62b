package dev.cairn.storage.archive.aiida;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * How an archive was created, in AiiDA's {@code creation_parameters} and in the parameters of Cairn's
 * header ({@code docs/archive-format.md}): the same facts under other names. AiiDA lists codes among
 * the nodes (Cairn's exports do too; a {@code codes} list is taken as nodes); {@code null} entities mean
 * the whole installation in both.
 */
final class CreationParameters {

    /** AiiDA's twelve traversal rules with the values {@code verdi archive create} uses by default. */
    static final Map<String, Boolean> EXPORT_RULES = exportRules();

    private CreationParameters() {}

    private static Map<String, Boolean> exportRules() {
        Map<String, Boolean> rules = new LinkedHashMap<>();
        rules.put("input_calc_forward", false);
        rules.put("input_calc_backward", true);
        rules.put("create_forward", true);
        rules.put("create_backward", true);
        rules.put("return_forward", true);
        rules.put("return_backward", false);
        rules.put("input_work_forward", false);
        rules.put("input_work_backward", true);
        rules.put("call_calc_forward", true);
        rules.put("call_calc_backward", true);
        rules.put("call_work_forward", true);
        rules.put("call_work_backward", true);
        return Map.copyOf(rules);
    }

    /** AiiDA's creation parameters as the parameters of Cairn's header. */
    static Map<String, Object> toCairn(JsonNode aiida) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (aiida == null || !aiida.isObject()) {
            return out;
        }
        JsonNode set = aiida.get("entities_starting_set");
        if (set != null && set.isObject()) {
            Map<String, Object> entities = new LinkedHashMap<>();
            entities.put("nodes", strings(set.get("node")));
            entities.put("groups", strings(set.get("group")));
            entities.put("computers", strings(set.get("computer")));
            out.put("entities", entities);
        } else {
            out.put("entities", null);
        }
        JsonNode rules = aiida.get("graph_traversal_rules");
        if (rules != null && rules.isObject()) {
            Map<String, Object> traversal = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> rule : rules.properties()) {
                if (rule.getValue().isBoolean()) {
                    traversal.put(rule.getKey(), rule.getValue().booleanValue());
                }
            }
            out.put("traversal_rules", traversal);
        }
        for (String flag : List.of("include_comments", "include_logs", "include_authinfos")) {
            JsonNode value = aiida.get(flag);
            if (value != null && value.isBoolean()) {
                out.put(flag, value.booleanValue());
            }
        }
        return out;
    }

    /** The parameters of Cairn's header as AiiDA's creation parameters, AiiDA's defaults for what is missing. */
    static ObjectNode toAiida(Map<String, Object> cairn) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode out = f.objectNode();
        if (cairn.get("entities") instanceof Map<?, ?> entities) {
            ObjectNode set = f.objectNode();
            List<Object> nodes = new ArrayList<>(list(entities.get("nodes")));
            nodes.addAll(list(entities.get("codes")));
            putList(set, "node", nodes);
            putList(set, "group", list(entities.get("groups")));
            putList(set, "computer", list(entities.get("computers")));
            out.set("entities_starting_set", set);
        } else {
            out.putNull("entities_starting_set");
        }
        out.put("include_authinfos", flag(cairn, "include_authinfos", false));
        out.put("include_comments", flag(cairn, "include_comments", true));
        out.put("include_logs", flag(cairn, "include_logs", true));
        ObjectNode rules = out.putObject("graph_traversal_rules");
        Map<?, ?> given = cairn.get("traversal_rules") instanceof Map<?, ?> m ? m : Map.of();
        for (String rule : List.of(
                "input_calc_forward",
                "input_calc_backward",
                "create_forward",
                "create_backward",
                "return_forward",
                "return_backward",
                "input_work_forward",
                "input_work_backward",
                "call_calc_forward",
                "call_calc_backward",
                "call_work_forward",
                "call_work_backward")) {
            rules.put(rule, given.get(rule) instanceof Boolean b ? b : EXPORT_RULES.get(rule));
        }
        return out;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null && array.isArray()) {
            for (JsonNode item : array) {
                out.add(item.asString());
            }
        }
        return out;
    }

    private static List<?> list(Object value) {
        return value instanceof List<?> l ? l : List.of();
    }

    private static void putList(ObjectNode set, String key, List<?> values) {
        // AiiDA leaves out the kinds of entity the starting set has none of
        if (!values.isEmpty()) {
            values.forEach(v -> set.withArrayProperty(key).add(String.valueOf(v)));
        }
    }

    private static boolean flag(Map<String, Object> cairn, String key, boolean otherwise) {
        return cairn.get(key) instanceof Boolean b ? b : otherwise;
    }
}
