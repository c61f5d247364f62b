package dev.cairn.cli.query;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.JsonTrees;

/**
 * The short form of a node query, turned into the query builder's JSON:
 *
 * <pre>
 * TYPE [where CONDITION [and CONDITION]...]
 * TYPE      = node (every node) | a class name (Int, Dict, CalcJobNode) | data | process | calculation | workflow
 *             | a node type prefix ending in '.' (data.core.)
 * CONDITION = FIELD OP VALUE
 * FIELD     = id | uuid | label | description | node_type | process_type | ctime | mtime
 *             | attributes.PATH | extras.PATH
 * OP        = == (or =) != &gt; &gt;= &lt; &lt;= like ilike in has_key
 * VALUE     = JSON (3, 2.5, true, null, "text", [1,2]) or a bare word, which is text
 * </pre>
 *
 * Example: {@code Int where attributes.value > 3 and label like 'n%'}. Words are case-insensitive.
 */
public final class QueryExpression {

    public static final String GRAMMAR = "TYPE [where FIELD OP VALUE [and FIELD OP VALUE]...]; TYPE: node, a class"
            + " name (Int, Dict, CalcJobNode), data, process, calculation, workflow or a node type prefix ending in"
            + " '.'; FIELD: id, uuid, label, description, node_type, process_type, ctime, mtime, attributes.PATH,"
            + " extras.PATH; OP: = != > >= < <= like ilike in has_key; VALUE: JSON or a bare word";

    private static final List<String> COLUMNS =
            List.of("id", "uuid", "label", "description", "node_type", "process_type", "ctime", "mtime");
    private static final Map<String, String> FAMILIES = Map.of(
            "data", "data.",
            "process", "process.",
            "calculation", "process.calculation.",
            "workflow", "process.workflow.",
            "code", "data.core.code.");
    private static final Map<String, String> OPERATORS = Map.ofEntries(
            Map.entry("=", "=="),
            Map.entry("==", "=="),
            Map.entry("!=", "!="),
            Map.entry(">", ">"),
            Map.entry(">=", ">="),
            Map.entry("<", "<"),
            Map.entry("<=", "<="),
            Map.entry("like", "like"),
            Map.entry("ilike", "ilike"),
            Map.entry("in", "in"),
            Map.entry("has_key", "has_key"));
    private static final Pattern TYPE = Pattern.compile("\\s*([A-Za-z_][A-Za-z0-9_.]*)\\s*");
    private static final Pattern CONDITION =
            Pattern.compile("\\s*([A-Za-z_][A-Za-z0-9_.]*)\\s*(==|!=|>=|<=|=|>|<|(?i:like|ilike|in|has_key)\\b)\\s*");

    private QueryExpression() {}

    /**
     * The query builder's JSON for {@code expression}: one vertex tagged {@code n}, ordered by id.
     *
     * @param project the fields each row holds
     * @param limit   the most rows, or null for all
     */
    public static ObjectNode parse(String expression, List<String> project, Long limit) {
        String text = expression.strip();
        Matcher type = TYPE.matcher(text);
        if (!type.lookingAt()) {
            throw bad(expression, "it must begin with a node type (node, Int, Dict, CalcJobNode, ...)");
        }
        ObjectNode vertex = JsonTrees.object();
        vertex.put("tag", "n");
        vertex.put("entity", "node");
        ArrayNode and = JsonTrees.MAPPER.createArrayNode();
        typeFilter(type.group(1), expression).ifPresent(and::add);
        int at = type.end();
        if (at < text.length()) {
            Matcher where = Pattern.compile("(?i)where\\s+").matcher(text);
            if (!where.region(at, text.length()).lookingAt()) {
                throw bad(expression, "expected 'where' after the type, found '" + rest(text, at) + "'");
            }
            at = where.end();
            while (true) {
                at = condition(text, at, and, expression);
                if (at >= text.length()) {
                    break;
                }
                Matcher next = Pattern.compile("\\s*(?i:and)\\s+").matcher(text);
                if (!next.region(at, text.length()).lookingAt()) {
                    throw bad(expression, "expected 'and' and another condition, found '" + rest(text, at) + "'");
                }
                at = next.end();
            }
        }
        if (!and.isEmpty()) {
            vertex.putObject("filters").set("and", and);
        }
        ArrayNode projections = vertex.putArray("project");
        for (String field : project) {
            checkField(field.strip(), expression);
            projections.add(field.strip());
        }
        ObjectNode query = JsonTrees.object();
        query.putArray("path").add(vertex);
        ObjectNode order = query.putArray("order_by").addObject();
        order.put("tag", "n");
        order.put("field", "id");
        order.put("order", "asc");
        if (limit != null) {
            query.put("limit", limit);
        }
        return query;
    }

    private static Optional<ObjectNode> typeFilter(String name, String expression) {
        String lower = name.toLowerCase(Locale.ROOT);
        ObjectNode filter = JsonTrees.object();
        if (lower.equals("node")) {
            return Optional.empty();
        }
        if (name.contains(".")) {
            if (!name.endsWith(".") || !(name.startsWith("data.") || name.startsWith("process."))) {
                throw bad(
                        expression,
                        "type '" + name + "' is no node type prefix: those start with data. or process."
                                + " and end with '.'");
            }
            filter.putObject("node_type").put("like", name.replace("_", "\\_") + "%");
        } else if (FAMILIES.containsKey(lower)) {
            filter.putObject("node_type").put("like", FAMILIES.get(lower) + "%");
        } else {
            filter.putObject("node_type").put("ilike", "%." + name.replace("_", "\\_") + ".");
        }
        return Optional.of(filter);
    }

    private static int condition(String text, int at, ArrayNode and, String expression) {
        Matcher m = CONDITION.matcher(text);
        if (!m.region(at, text.length()).lookingAt()) {
            throw bad(expression, "expected a condition FIELD OP VALUE at '" + rest(text, at) + "'");
        }
        String field = m.group(1);
        checkField(field, expression);
        String op = OPERATORS.get(m.group(2).toLowerCase(Locale.ROOT));
        int start = m.end();
        int end = valueEnd(text, start, expression);
        if (end == start) {
            throw bad(expression, "'" + field + " " + m.group(2) + "' needs a value");
        }
        JsonNode value = value(text.substring(start, end).strip(), op, expression);
        ObjectNode condition = JsonTrees.object();
        if (op.equals("!=")) {
            condition.putObject("not").putObject(field).set("==", value);
        } else {
            condition.putObject(field).set(op, value);
        }
        and.add(condition);
        return end;
    }

    /** Where a value ends: after its closing quote or bracket, or at the next space. */
    private static int valueEnd(String text, int start, String expression) {
        if (start >= text.length()) {
            return start;
        }
        char c = text.charAt(start);
        if (c == '"' || c == '\'') {
            int close = start + 1;
            while (close < text.length() && text.charAt(close) != c) {
                close += text.charAt(close) == '\\' ? 2 : 1;
            }
            if (close >= text.length()) {
                throw bad(expression, "a quote " + c + " is not closed");
            }
            return close + 1;
        }
        if (c == '[') {
            int close = text.indexOf(']', start);
            if (close < 0) {
                throw bad(expression, "a '[' is not closed");
            }
            return close + 1;
        }
        int space = start;
        while (space < text.length() && !Character.isWhitespace(text.charAt(space))) {
            space++;
        }
        return space;
    }

    private static JsonNode value(String raw, String op, String expression) {
        if (raw.startsWith("'")) {
            return JsonTrees.MAPPER
                    .getNodeFactory()
                    .stringNode(raw.substring(1, raw.length() - 1).replace("\\'", "'"));
        }
        JsonNode value;
        try {
            value = JsonTrees.parse(raw);
        } catch (JacksonException e) {
            if (raw.startsWith("\"") || raw.startsWith("[")) {
                throw bad(expression, "the value " + raw + " is not valid JSON");
            }
            value = JsonTrees.MAPPER.getNodeFactory().stringNode(raw);
        }
        if (op.equals("in") && !value.isArray()) {
            throw bad(expression, "'in' takes a list, e.g. [1, 2, 3]; got " + raw);
        }
        return value;
    }

    private static void checkField(String field, String expression) {
        if (COLUMNS.contains(field)
                || field.startsWith("attributes.") && field.length() > 11
                || field.startsWith("extras.") && field.length() > 7
                || field.equals("attributes")
                || field.equals("extras")
                || field.equals("*")) {
            return;
        }
        throw bad(
                expression, "unknown field '" + field + "'; fields are " + COLUMNS + ", attributes.PATH, extras.PATH");
    }

    private static String rest(String text, int at) {
        String rest = text.substring(at).strip();
        return rest.length() > 30 ? rest.substring(0, 30) + "…" : rest;
    }

    private static CliException bad(String expression, String what) {
        return CliException.usage("query '" + expression + "': " + what + " (`cairn query --help` tells the grammar)");
    }

    /** A list of projections from {@code --project id,uuid}. */
    public static List<String> projections(String list) {
        List<String> fields = new ArrayList<>();
        for (String f : list.split(",")) {
            if (!f.isBlank()) {
                fields.add(f.strip());
            }
        }
        return fields;
    }
}
