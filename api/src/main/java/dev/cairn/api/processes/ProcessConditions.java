package dev.cairn.api.processes;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.cairn.api.web.ProcessRefs;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.errors.InvalidInputException;

/**
 * A {@link ProcessFilter} as SQL: conditions on the process node {@code n} (and its links), with
 * their values bound, never written into the text, but for process states: those are checked against
 * the fixed set of states and written as literals, for the partial index of live processes. Values are
 * checked here, each refusal naming the criterion and what it takes.
 */
final class ProcessConditions {

    private static final String CALL = "l.type IN ('call_calc', 'call_work')";

    private final List<String> clauses = new ArrayList<>();
    private final List<Object> values = new ArrayList<>();

    private ProcessConditions() {}

    static ProcessConditions of(ProcessFilter f, ProcessRefs refs) {
        ProcessConditions c = new ProcessConditions();
        c.clauses.add("n.node_type LIKE 'process.%'");
        if (f.processes() != null) {
            c.add("n.id = ANY(?)", new Ids(f.processes().stream().map(refs::id).toList()));
        }
        if (f.states() != null) {
            // literals, not a bound array: only then does the planner see that the partial index of live
            // processes (node_live_process_idx) holds all a list of created and waiting ones asks for
            c.clauses.add("n.attributes ->> 'process_state' IN ("
                    + String.join(
                            ", ",
                            states(f.states()).stream()
                                    .map(st -> "'" + st + "'")
                                    .toList()) + ")");
        }
        if (f.type() != null) {
            c.pattern("n.process_type", f.type(), "type");
        }
        if (f.label() != null) {
            c.pattern("n.label", f.label(), "label");
        }
        if (f.exitStatus() != null) {
            c.add("n.attributes ->> 'exit_status' = ?", f.exitStatus().toString());
        }
        if (f.failed() != null) {
            String failed = "(n.attributes ->> 'process_state' = 'finished'"
                    + " AND coalesce(n.attributes ->> 'exit_status', '0') <> '0')";
            c.clauses.add(f.failed() ? failed : "NOT " + failed);
        }
        if (f.paused() != null) {
            c.clauses.add((f.paused() ? "" : "NOT ") + "coalesce(n.attributes -> 'paused' = 'true'::jsonb, false)");
        }
        // in UTC: PostgreSQL takes offsets up to ±15:59, ISO 8601 (and Java) up to ±18:00
        if (f.since() != null) {
            c.add("n.ctime >= ?", f.since().withOffsetSameInstant(ZoneOffset.UTC));
        }
        if (f.until() != null) {
            c.add("n.ctime < ?", f.until().withOffsetSameInstant(ZoneOffset.UTC));
        }
        if (f.caller() != null) {
            c.add(
                    "EXISTS (SELECT 1 FROM link l WHERE l.output_id = n.id AND l.input_id = ? AND " + CALL + ")",
                    refs.id(f.caller()));
        }
        if (f.topLevel() != null) {
            c.clauses.add((f.topLevel() ? "NOT " : "") + "EXISTS (SELECT 1 FROM link l WHERE l.output_id = n.id AND "
                    + CALL + ")");
        }
        if (f.group() != null) {
            c.add(
                    "EXISTS (SELECT 1 FROM group_member gm JOIN node_group g ON g.id = gm.group_id"
                            + " WHERE gm.node_id = n.id AND g.label = ? AND g.type_string = 'core')",
                    f.group());
        }
        return c;
    }

    /** The states given, checked. */
    static List<String> states(List<String> given) {
        List<String> valid =
                Arrays.stream(ProcessState.values()).map(ProcessState::dbValue).toList();
        for (String s : given) {
            if (!valid.contains(s)) {
                throw new InvalidInputException("state '" + s + "' is not a process state; the states are " + valid
                        + ("running".equals(s) ? " (a step is one transaction: no process is ever seen running)" : ""));
            }
        }
        return given;
    }

    /** Also these conditions (written with their own '?' and values). */
    ProcessConditions and(String clause, Object... more) {
        clauses.add(clause);
        values.addAll(Arrays.asList(more));
        return this;
    }

    String where() {
        return String.join(" AND ", clauses);
    }

    /** Binds the values from parameter {@code first} on; returns the next parameter's index. */
    int bind(Connection c, PreparedStatement s, int first) throws SQLException {
        int i = first;
        for (Object v : values) {
            switch (v) {
                case Ids ids ->
                    s.setArray(i++, c.createArrayOf("bigint", ids.ids().toArray()));
                default -> s.setObject(i++, v);
            }
        }
        return i;
    }

    private void add(String clause, Object value) {
        clauses.add(clause);
        values.add(value);
    }

    /** Exactly {@code value}, or values beginning with what comes before its final '*'. */
    private void pattern(String column, String value, String name) {
        if (value.endsWith("*")) {
            String prefix = value.substring(0, value.length() - 1);
            if (prefix.contains("*")) {
                throw new InvalidInputException(name + " '" + value + "': '*' may only end it (a prefix)");
            }
            add(
                    column + " LIKE ? ESCAPE '\\'",
                    prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
        } else {
            add(column + " = ?", value);
        }
    }

    private record Ids(List<Long> ids) {}
}
