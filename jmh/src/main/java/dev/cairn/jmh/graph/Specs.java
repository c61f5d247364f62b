package dev.cairn.jmh.graph;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.cairn.storage.query.Filter;
import dev.cairn.storage.query.QueryBuilder;
import dev.cairn.storage.query.QuerySpec;

/** The queries of the comparison's query phases, as aiida-core's peer script asks them. */
final class Specs {

    private Specs() {}

    static Map<String, QuerySpec> all(List<Long> roots) {
        Map<String, QuerySpec> specs = new LinkedHashMap<>();
        specs.put("project_all", projectAll());
        specs.put(
                "count_longer",
                QueryBuilder.start()
                        .node(
                                "s",
                                v -> v.type(GraphData.STRUCTURE)
                                        .where(Filter.field("attributes.sites").longer(32)))
                        .build());
        specs.put("project_filtered", projectFiltered());
        // what aiida-core's peer script measures under this name: id and cell only
        specs.put(
                "project_filtered_cell",
                QueryBuilder.start()
                        .node(
                                "s",
                                v -> v.type(GraphData.STRUCTURE)
                                        .where(Filter.field("attributes.sites").longer(32))
                                        .project("id", "attributes.cell"))
                        .build());
        specs.put(
                "value_filter",
                QueryBuilder.start()
                        .node(
                                "s",
                                v -> v.type(GraphData.STRUCTURE)
                                        .where(Filter.field("attributes.cell.0.0")
                                                .gt(10.0))
                                        .project("id"))
                        .build());
        specs.put(
                "contains",
                QueryBuilder.start()
                        .node(
                                "s",
                                v -> v.type(GraphData.STRUCTURE)
                                        .where(Filter.field("attributes.kinds").contains(List.of(Map.of("name", "Ba"))))
                                        .project("id"))
                        .build());
        specs.put("descendants_50", descendants(roots));
        return specs;
    }

    static QuerySpec projectAll() {
        return QueryBuilder.start()
                .node(
                        "s",
                        v -> v.type(GraphData.STRUCTURE)
                                .project("attributes.cell", "attributes.kinds", "attributes.sites"))
                .build();
    }

    static QuerySpec projectFiltered() {
        return QueryBuilder.start()
                .node(
                        "s",
                        v -> v.type(GraphData.STRUCTURE)
                                .where(Filter.field("attributes.sites").longer(32))
                                .project("id", "attributes.cell", "attributes.sites"))
                .build();
    }

    static QuerySpec descendants(List<Long> roots) {
        return QueryBuilder.start()
                .node("root", v -> v.where(Filter.field("id").in(roots)).project("id"))
                .node("d", v -> v.withAncestors("root").project("id"))
                .build();
    }
}
