package dev.cairn.storage.graph;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.Map;
import java.util.Optional;

import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.InvalidInputException;

/**
 * Turns the database's refusals into the graph's exceptions. The database holds the link
 * rules as unique indexes and triggers, so a rule broken by a concurrent writer is caught
 * there even when the checks in Java passed.
 */
public final class SqlErrors {

    /** What each rule-holding index means, to say it in words. */
    private static final Map<String, String> RULES = Map.of(
            "link_one_creator_idx", "a data node has at most one CREATE link (one creator)",
            "link_one_caller_idx", "a process has at most one caller (CALL_CALC or CALL_WORK link)",
            "link_create_label_idx", "a calculation's CREATE links have distinct labels",
            "link_return_label_idx", "a workflow's RETURN links have distinct labels",
            "link_input_label_idx", "a process's input links have distinct labels",
            "link_triple_idx", "the same link (source, target, type, label) exists once",
            "node_uuid_key", "node uuids are unique");

    public static final String UNIQUE_VIOLATION = "23505";
    public static final String FOREIGN_KEY_VIOLATION = "23503";

    private SqlErrors() {}

    /** True when {@code failure} (or a cause) is PostgreSQL refusing a row because of {@code constraint}. */
    public static boolean violated(Throwable failure, String constraint) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof PSQLException e) {
                ServerErrorMessage server = e.getServerErrorMessage();
                if (server != null && constraint.equals(server.getConstraint())) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether {@code failure} itself (not its causes) is a JDBC connection failure: a pool's timeout, a
     * connection refused or lost (SQLSTATE class 08), or the server ending the session as it shuts down,
     * crashes or starts (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now: what a
     * session on a primary that fails over or restarts is told). Such a failure means the database is
     * away, and a request may well succeed once it is back.
     */
    public static boolean isConnectionFailure(Throwable failure) {
        return failure instanceof SQLTransientConnectionException
                || failure instanceof SQLNonTransientConnectionException
                || (failure instanceof SQLException e
                        && e.getSQLState() != null
                        && (e.getSQLState().startsWith("08") || e.getSQLState().startsWith("57P0")));
    }

    /** Whether {@code failure} or one of its causes is a {@linkplain #isConnectionFailure connection failure}. */
    public static boolean causedByConnectionFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (isConnectionFailure(t)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Why the database refused a value, when {@code failure} (or a cause) is an SQL error of SQLSTATE class
     * 22, "data exception" (a NUL character in text, a time out of PostgreSQL's range, a number too large
     * for its column): the first line of its message. Such a value is the caller's fault; the transaction
     * it failed in rolled back.
     */
    public static Optional<String> refusedValue(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql
                    && sql.getSQLState() != null
                    && sql.getSQLState().startsWith("22")) {
                return Optional.of(
                        sql.getMessage() == null
                                ? sql.getSQLState()
                                : sql.getMessage().lines().findFirst().orElse(""));
            }
        }
        return Optional.empty();
    }

    /** The graph's exception for a refusal, or a storage failure naming what was being done. */
    public static RuntimeException translate(SQLException e, String doing) {
        ServerErrorMessage server = e instanceof PSQLException p ? p.getServerErrorMessage() : null;
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String detail = server == null || server.getDetail() == null ? "" : " (" + server.getDetail() + ")";
        String constraint = server == null ? null : server.getConstraint();
        return switch (state) {
            case "CA001" -> new ModificationNotAllowedException(doing + ": " + server.getMessage(), e);
            case "CA002" -> new LinkRuleException(doing + ": " + server.getMessage(), e);
            case UNIQUE_VIOLATION ->
                RULES.containsKey(constraint) && constraint.startsWith("link")
                        ? new LinkRuleException(doing + ": " + RULES.get(constraint) + detail, e)
                        : new ConflictException(doing + ": " + RULES.getOrDefault(constraint, "duplicate") + detail, e);
            case FOREIGN_KEY_VIOLATION ->
                new NodeNotFoundException(doing + ": a node it refers to does not exist (deleted?)" + detail);
            case "23514" -> new InvalidInputException(doing + ": refused by check " + constraint + detail);
            default -> new StorageException(doing + " failed: " + e.getMessage(), e);
        };
    }
}
