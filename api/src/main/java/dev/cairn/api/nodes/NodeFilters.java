package dev.cairn.api.nodes;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.cairn.api.web.Json;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.query.Filter;
import dev.cairn.storage.query.InvalidQueryException;
import dev.cairn.storage.query.Operator;
import dev.cairn.storage.query.QuerySpec;

/**
 * The small filter language of node lists, compiled to the query builder's filters:
 * repeatable {@code filter=<field><op><value>}, all of which must hold.
 * <ul>
 * <li>fields: {@code uuid}, {@code label}, {@code description}, {@code node_type},
 *     {@code process_type}, {@code ctime}, {@code mtime}, {@code user} (an email), and JSON
 *     paths {@code attributes.<path>}, {@code extras.<path>} ({@code attributes.cell.0.0});</li>
 * <li>operators: {@code =}, {@code !=}, {@code >}, {@code >=}, {@code <}, {@code <=},
 *     {@code ~} (like), {@code ~~} (ilike), {@code !~}, {@code !~~}, and any operator of the
 *     query builder by name between equals signs, negated by a {@code !}: {@code =in=},
 *     {@code =!in=}, {@code =notin=}, {@code =like=}, {@code =ilike=}, {@code =has_key=},
 *     {@code =contains=}, {@code =of_length=}, {@code =longer=}, {@code =shorter=},
 *     {@code =of_type=};</li>
 * <li>values are typed by the field: text for the text columns (quotes optional), ISO times
 *     for {@code ctime}/{@code mtime} (a date alone is its midnight, no offset is UTC), and JSON
 *     for attribute and extra paths ({@code 3}, {@code 2.5}, {@code true}, {@code null},
 *     {@code "3"}, {@code [1,2]}; anything that is not JSON is a string). A list for
 *     {@code =in=} is a JSON array or comma-separated values.</li>
 * </ul>
 * {@code type=} names node classes ({@code StructureData}, {@code Int}, {@code CalcJobNode}) or
 * node type prefixes ({@code process.calculation.}); {@code query=} takes the query builder's
 * JSON filters for anything else ({@code {"or": [...]}}).
 */
final class NodeFilters {

    private enum Kind {
        UUID,
        TEXT,
        TIME,
        JSON
    }

    private static final Map<String, Kind> COLUMNS = Map.of(
            "uuid", Kind.UUID,
            "label", Kind.TEXT,
            "description", Kind.TEXT,
            "node_type", Kind.TEXT,
            "process_type", Kind.TEXT,
            "ctime", Kind.TIME,
            "mtime", Kind.TIME,
            "user", Kind.TEXT);
    static final List<String> FIELDS = List.of(
            "uuid",
            "label",
            "description",
            "node_type",
            "process_type",
            "ctime",
            "mtime",
            "user",
            "attributes.<path>",
            "extras.<path>");
    private static final List<String> SYMBOLS = List.of("!~~", "!~", "!=", ">=", "<=", "~~", "~", ">", "<", "=");
    private static final Pattern WORD_OPERATOR = Pattern.compile("=(!?)([a-z_]+)=");
    private static final Set<Operator> TEXT_OPERATORS = Set.of(
            Operator.EQ,
            Operator.GT,
            Operator.LT,
            Operator.GE,
            Operator.LE,
            Operator.IN,
            Operator.LIKE,
            Operator.ILIKE);
    private static final Set<Operator> TIME_OPERATORS =
            Set.of(Operator.EQ, Operator.GT, Operator.LT, Operator.GE, Operator.LE, Operator.IN);
    private static final Set<Operator> UUID_OPERATORS = Set.of(Operator.EQ, Operator.IN, Operator.LIKE);
    static final String OPERATORS = "=, !=, >, >=, <, <=, ~ (like), ~~ (ilike), !~, !~~, and =name= for any of "
            + "in, notin, like, ilike, has_key, contains, of_length, longer, shorter, of_type (=!name= negates)";

    private NodeFilters() {}

    /** The selection the parameters make; null or empty parameters select everything. */
    static NodeSelection parse(List<String> filters, String types, String query) {
        List<Filter> node = new ArrayList<>();
        List<Filter> user = new ArrayList<>();
        if (types != null && !types.isBlank()) {
            node.add(NodeTypeFilter.parse(types));
        }
        for (String f : filters) {
            Filter.Condition c = condition(f);
            if (c.field().equals("user")) {
                user.add(new Filter.Condition("email", c.operator(), c.negated(), c.value()));
            } else {
                node.add(c);
            }
        }
        if (query != null && !query.isBlank()) {
            Filter q = queryFilter(query);
            if (q != null) {
                node.add(q);
            }
        }
        return new NodeSelection(all(node), all(user));
    }

    private static Filter all(List<Filter> filters) {
        return filters.isEmpty() ? null : filters.size() == 1 ? filters.getFirst() : new Filter.And(filters);
    }

    /** One {@code field op value}. */
    static Filter.Condition condition(String text) {
        int at = 0;
        while (at < text.length() && "=!<>~".indexOf(text.charAt(at)) < 0) {
            at++;
        }
        String field = text.substring(0, at).strip();
        if (field.isEmpty() || at == text.length()) {
            throw new InvalidInputException("filter '" + text + "' is not <field><operator><value>; fields are "
                    + FIELDS + ", operators " + OPERATORS + " (e.g. filter=label~calc%, filter=attributes.value>=3)");
        }
        Kind kind = kind(field, text);
        String rest = text.substring(at);
        Operator op;
        boolean negated;
        String value;
        Matcher word = WORD_OPERATOR.matcher(rest);
        if (word.lookingAt()) {
            String name = word.group(2);
            negated = !word.group(1).isEmpty();
            if (name.equals("notin")) {
                name = "in";
                negated = !negated;
            }
            op = named(name, text);
            value = rest.substring(word.end());
        } else {
            String symbol =
                    SYMBOLS.stream().filter(rest::startsWith).findFirst().orElseThrow();
            negated = symbol.startsWith("!");
            op = switch (symbol) {
                case "=", "!=" -> Operator.EQ;
                case ">" -> Operator.GT;
                case ">=" -> Operator.GE;
                case "<" -> Operator.LT;
                case "<=" -> Operator.LE;
                case "~", "!~" -> Operator.LIKE;
                case "~~", "!~~" -> Operator.ILIKE;
                default -> throw new IllegalStateException(symbol);
            };
            value = rest.substring(symbol.length());
        }
        checkApplies(field, kind, op, text);
        return new Filter.Condition(field, op, negated, value(field, kind, op, value, text));
    }

    private static Kind kind(String field, String text) {
        Kind kind = COLUMNS.get(field);
        if (kind != null) {
            return kind;
        }
        if (field.equals("attributes")
                || field.equals("extras")
                || field.startsWith("attributes.")
                || field.startsWith("extras.")) {
            return Kind.JSON;
        }
        throw new InvalidInputException("filter '" + text + "': unknown field '" + field + "'; fields are " + FIELDS
                + " (query=<JSON filters> reaches every column)");
    }

    private static Operator named(String name, String text) {
        for (Operator op : Operator.values()) {
            if (op.symbol().equals(name)) {
                return op;
            }
        }
        throw new InvalidInputException(
                "filter '" + text + "': unknown operator '=" + name + "='; operators are " + OPERATORS);
    }

    private static void checkApplies(String field, Kind kind, Operator op, String text) {
        Set<Operator> allowed = switch (kind) {
            case UUID -> UUID_OPERATORS;
            case TEXT -> TEXT_OPERATORS;
            case TIME -> TIME_OPERATORS;
            case JSON -> Set.of(Operator.values());
        };
        if (!allowed.contains(op)) {
            throw new InvalidInputException("filter '" + text + "': operator '" + op.symbol() + "' does not apply to "
                    + field + "; it takes "
                    + allowed.stream().map(Operator::symbol).sorted().toList() + " (and their negations)");
        }
    }

    private static Object value(String field, Kind kind, Operator op, String text, String filter) {
        if (op == Operator.IN) {
            List<Object> items = new ArrayList<>();
            for (String item : items(text)) {
                items.add(scalar(field, kind, item, filter));
            }
            if (items.isEmpty()) {
                throw new InvalidInputException("filter '" + filter + "': =in= needs at least one value");
            }
            return items;
        }
        return switch (op) {
            case OF_LENGTH, LONGER, SHORTER -> {
                try {
                    yield Long.parseLong(text.strip());
                } catch (NumberFormatException e) {
                    throw new InvalidInputException(
                            "filter '" + filter + "': " + op.symbol() + " takes a length, not '" + text + "'");
                }
            }
            case HAS_KEY, OF_TYPE, LIKE, ILIKE -> unquoted(text);
            case CONTAINS -> json(text);
            default -> scalar(field, kind, text, filter);
        };
    }

    /** The items of a list: a JSON array, or comma-separated values, in parentheses or not. */
    private static List<String> items(String text) {
        String t = text.strip();
        if (t.startsWith("[")) {
            Object parsed = json(t);
            if (parsed instanceof List<?> list) {
                return list.stream().map(Json::write).toList();
            }
        }
        if (t.startsWith("(") && t.endsWith(")")) {
            t = t.substring(1, t.length() - 1);
        }
        List<String> items = new ArrayList<>();
        for (String item : t.split(",", -1)) {
            if (!item.isBlank()) {
                items.add(item.strip());
            }
        }
        return items;
    }

    private static Object scalar(String field, Kind kind, String text, String filter) {
        return switch (kind) {
            case TEXT -> unquoted(text);
            case UUID -> {
                String u = unquoted(text);
                try {
                    yield UUID.fromString(u).toString();
                } catch (IllegalArgumentException e) {
                    throw new InvalidInputException(
                            "filter '" + filter + "': '" + u + "' is not a uuid (for a prefix write uuid~" + u + "%)");
                }
            }
            case TIME -> time(unquoted(text), field, filter);
            case JSON -> json(text);
        };
    }

    /** An ISO time; a date alone is its midnight, no offset is UTC, and a '+' a URL decoded to a space is mended. */
    static String time(String text, String field, String filter) {
        String t = text.strip().replace(' ', '+');
        try {
            return OffsetDateTime.parse(t).toString();
        } catch (DateTimeParseException notWithOffset) {
            try {
                return LocalDateTime.parse(t).atOffset(ZoneOffset.UTC).toString();
            } catch (DateTimeParseException notLocal) {
                try {
                    return LocalDate.parse(t)
                            .atStartOfDay()
                            .atOffset(ZoneOffset.UTC)
                            .toString();
                } catch (DateTimeParseException notDate) {
                    throw new InvalidInputException("filter '" + filter + "': " + field + " takes an ISO date or time"
                            + " (2024-05-01, 2024-05-01T12:00, 2024-05-01T12:00:00+02:00), not '" + text + "'");
                }
            }
        }
    }

    /** A JSON value; text that is not JSON is a string. */
    private static Object json(String text) {
        String t = text.strip();
        try {
            return Json.read(t);
        } catch (InvalidInputException notJson) {
            return t;
        }
    }

    private static String unquoted(String text) {
        String t = text.strip();
        if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) {
            Object parsed = json(t);
            if (parsed instanceof String s) {
                return s;
            }
        }
        return t;
    }

    /** The query builder's JSON filters ({@code {"attributes.x": {">": 1}}}), checked as a query checks them. */
    static Filter queryFilter(String json) {
        Map<String, Object> filters;
        try {
            filters = Json.readObject(json);
        } catch (InvalidInputException e) {
            throw new InvalidInputException("query: " + e.getMessage()
                    + "; query takes the query builder's JSON filters, e.g. {\"attributes.value\": {\">\": 3}}");
        }
        try {
            // one vertex whose filters are the client's, written back from the parsed map so that
            // nothing but filters can reach the query
            QuerySpec spec = QuerySpec.fromJson(
                    "{\"path\": [{\"tag\": \"n\", \"entity\": \"node\", \"filters\": " + Json.write(filters) + "}]}");
            return spec.path().getFirst().filter();
        } catch (InvalidQueryException e) {
            throw new InvalidInputException(e.getMessage()
                    .replace("path[0] (tag 'n') filters", "query")
                    .replace("vertex 'n' filters", "query"));
        }
    }
}
