package dev.cairn.api.nodes;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.LinkType;

/** The query parameters node lists share: their descriptions for the API document, and their parsing. */
final class NodeParams {

    static final String FILTER =
            "A condition on the nodes, `<field><operator><value>`; repeat it for more, all must hold."
                    + " Fields: uuid, label, description, node_type, process_type, ctime, mtime, user (an email),"
                    + " attributes.<path>, extras.<path>. Operators: =, !=, >, >=, <, <=, ~ (like, % and _ as wildcards),"
                    + " ~~ (ilike), !~, !~~, and =name= for in, notin, like, ilike, has_key, contains, of_length, longer,"
                    + " shorter, of_type (=!name= negates). Values: text for text columns, ISO times for ctime and mtime"
                    + " (a date alone is its midnight UTC), JSON for attribute and extra paths (anything else is a string);"
                    + " a list for =in= is a JSON array or comma-separated.";
    static final String TYPE = "Node classes, comma-separated: a class name (StructureData, Int or IntData,"
            + " CalcJobNode, ...), a family (data, process, calculation, workflow, code) or a node type prefix"
            + " (process.calculation.).";
    static final String QUERY = "The query builder's JSON filters on the nodes, for what `filter` cannot say,"
            + " e.g. {\"or\": [{\"attributes.value\": {\">\": 10}}, {\"label\": {\"like\": \"x%\"}}]}.";
    static final String ORDER = "Sort keys, comma-separated, each descending with a leading '-': created (the order"
            + " nodes were stored, the cheapest), ctime, mtime, label, node_type; ties are broken by creation."
            + " Default -created (newest first).";
    static final String LIMIT = "Items per page, 1 to cairn.limits.page-max (1000); default 100.";
    static final String CURSOR = "The `next` of the previous page (also in its Link header), unchanged.";
    static final String COUNT = "Also count every item of the list (one more query).";
    static final String LINK_TYPES =
            "Link types, comma-separated: create, return, input_calc, input_work, call_calc," + " call_work, or all.";

    private NodeParams() {}

    /** The filters of a list: {@code filter} may repeat, and a value may hold commas of its own. */
    static NodeSelection selection(HttpServletRequest request) {
        String[] filters = request.getParameterValues("filter");
        return NodeFilters.parse(
                filters == null ? List.of() : Arrays.asList(filters),
                request.getParameter("type"),
                request.getParameter("query"));
    }

    /** Link types by their names, or {@code all}; null (no parameter) is null. */
    static Set<LinkType> linkTypes(String names) {
        if (names == null || names.isBlank()) {
            return null;
        }
        Set<LinkType> types = EnumSet.noneOf(LinkType.class);
        for (String raw : names.split(",")) {
            String name = raw.strip();
            if (name.equals("all")) {
                types.addAll(EnumSet.allOf(LinkType.class));
                continue;
            }
            try {
                types.add(LinkType.fromDbValue(name));
            } catch (InvalidInputException e) {
                throw new InvalidInputException("link_types: " + e.getMessage() + ", or all");
            }
        }
        if (types.isEmpty()) {
            throw new InvalidInputException("link_types names no link type; give some of "
                    + Arrays.stream(LinkType.values()).map(LinkType::dbValue).toList() + ", or all");
        }
        return types;
    }
}
