package dev.cairn.storage.graph;

import java.sql.SQLException;
import java.util.Map;

import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * Turns the database's refusals into the graph's exceptions. The database holds the link
 * rules as unique indexes and triggers, so a rule broken by a concurrent writer is caught
 * there even when the checks in Java passed.
 */
final class SqlErrors {

    /** What each rule-holding index means, to say it in words. */
    private static final Map<String, String> RULES = Map.of(
        "link_one_creator_idx", "a data node has at most one CREATE link (one creator)",
        "link_one_caller_idx", "a process has at most one caller (CALL_CALC or CALL_WORK link)",
        "link_create_label_idx", "a calculation's CREATE links have distinct labels",
        "link_return_label_idx", "a workflow's RETURN links have distinct labels",
        "link_input_label_idx", "a process's input links have distinct labels",
        "link_triple_idx", "the same link (source, target, type, label) exists once",
        "node_uuid_key", "node uuids are unique");

    private SqlErrors() {
    }

    /** The graph's exception for a refusal, or a generic one naming what was being done. */
    static GraphException translate(SQLException e, String doing) {
        ServerErrorMessage server = e instanceof PSQLException p ? p.getServerErrorMessage() : null;
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String detail = server == null || server.getDetail() == null ? "" : " (" + server.getDetail() + ")";
        String constraint = server == null ? null : server.getConstraint();
        return switch (state) {
            case "CA001" -> new ModificationNotAllowedException(doing + ": " + server.getMessage(), e);
            case "CA002" -> new LinkRuleException(doing + ": " + server.getMessage(), e);
            case "23505" -> RULES.containsKey(constraint) && constraint.startsWith("link")
                ? new LinkRuleException(doing + ": " + RULES.get(constraint) + detail, e)
                : new GraphException(doing + ": " + RULES.getOrDefault(constraint, "duplicate") + detail, e);
            case "23503" -> new NodeNotFoundException(doing + ": a node it refers to does not exist (deleted?)" + detail);
            case "23514" -> new GraphException(doing + ": refused by check " + constraint + detail, e);
            default -> new GraphException(doing + " failed: " + e.getMessage(), e);
        };
    }
}
