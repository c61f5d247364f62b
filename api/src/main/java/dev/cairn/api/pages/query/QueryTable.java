package dev.cairn.api.pages.query;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.cairn.api.query.QueryColumn;
import dev.cairn.api.query.QueryService;
import dev.cairn.storage.query.EntityType;
import dev.cairn.storage.query.QuerySpec;
import dev.cairn.storage.query.Row;
import dev.cairn.storage.query.Vertex;

/**
 * A page of a query's rows as the query page shows them: headings as the Python client names its columns,
 * each value as text, a node's uuid as a link to the node's page.
 *
 * @param total every row of the query, when counted (the first page)
 */
record QueryTable(List<String> headings, List<List<Cell>> rows, String next, Long total) {

    /** A cell: its text, and where it leads, or null. */
    record Cell(String text, String href) {}

    static QueryTable of(QuerySpec spec, QueryService.RowPage page) {
        List<QueryColumn> columns = QueryColumn.of(spec);
        Set<String> nodeTags = new HashSet<>();
        for (Vertex v : spec.path()) {
            if (v.entity() == EntityType.NODE) {
                nodeTags.add(v.tag());
            }
        }
        List<List<Cell>> rows = new ArrayList<>(page.rows().size());
        for (Row row : page.rows()) {
            List<Cell> cells = new ArrayList<>(columns.size());
            for (QueryColumn c : columns) {
                String text = c.text(row.get(c.index()));
                boolean linksNode = nodeTags.contains(c.tag()) && c.key().equals("uuid") && !text.isEmpty();
                cells.add(new Cell(text, linksNode ? "/ui/nodes/" + text : null));
            }
            rows.add(cells);
        }
        return new QueryTable(QueryColumn.headings(columns), rows, page.next(), page.total());
    }
}
