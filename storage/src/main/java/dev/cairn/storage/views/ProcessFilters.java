package dev.cairn.storage.views;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import dev.cairn.storage.query.Filter;

/**
 * {@link ProcessCriteria} as the query builder's filters on a process vertex. The state is compared on
 * the derived field {@code process_state}, the expression the partial index of live processes is built
 * on, so that a list of created and waiting ones reads that index; a kind of process is its node type;
 * a caller and a group are joins
 * (see {@link ProcessViews}), not filters.
 */
final class ProcessFilters {

    private ProcessFilters() {}

    /** The filter of the criteria, or null when they name nothing a filter holds. */
    static Filter of(ProcessCriteria c) {
        List<Filter> all = new ArrayList<>();
        if (c.ids() != null) {
            all.add(Filter.field("id").in(c.ids()));
        }
        if (c.states() != null) {
            all.add(Filter.field("process_state").in(c.states()));
        }
        if (c.type() != null) {
            all.add(match("process_type", c.type()));
        }
        if (c.nodeTypes() != null) {
            // one type is an equality, which reads the index on (node_type, ctime, id) in the list's order;
            // = ANY of a one-element array would have every row of the type read and sorted for each page
            all.add(
                    c.nodeTypes().size() == 1
                            ? Filter.field("node_type").eq(c.nodeTypes().getFirst())
                            : Filter.field("node_type").in(c.nodeTypes()));
        }
        if (c.label() != null) {
            all.add(match("label", c.label()));
        }
        if (c.exitStatus() != null) {
            all.add(Filter.field("attributes.exit_status").eq(c.exitStatus()));
        }
        if (c.failed() != null) {
            Filter failed = Filter.and(
                    Filter.field("process_state").eq("finished"),
                    Filter.field("attributes.exit_status").ofType("number"),
                    Filter.field("attributes.exit_status").ne(0));
            all.add(c.failed() ? failed : Filter.not(failed));
        }
        if (c.paused() != null) {
            // an absent flag is not paused: the negation of == is true there
            all.add(
                    c.paused()
                            ? Filter.field("attributes.paused").eq(true)
                            : Filter.field("attributes.paused").ne(true));
        }
        // in UTC: PostgreSQL takes offsets up to ±15:59, ISO 8601 (and Java) up to ±18:00
        if (c.since() != null) {
            all.add(Filter.field("ctime")
                    .ge(c.since().withOffsetSameInstant(ZoneOffset.UTC).toString()));
        }
        if (c.until() != null) {
            all.add(Filter.field("ctime")
                    .lt(c.until().withOffsetSameInstant(ZoneOffset.UTC).toString()));
        }
        if (c.topLevel() != null) {
            all.add(
                    c.topLevel()
                            ? Filter.field("caller_id").eq(null)
                            : Filter.field("caller_id").ne(null));
        }
        return all.isEmpty() ? null : Filter.and(all.toArray(Filter[]::new));
    }

    /** Exactly the text, or (a prefix) values beginning with it, its LIKE wildcards escaped. */
    private static Filter match(String field, ProcessCriteria.Match m) {
        if (!m.prefix()) {
            return Filter.field(field).eq(m.text());
        }
        return Filter.field(field)
                .like(m.text().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
    }
}
