package dev.cairn.storage.archive;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;

import dev.cairn.storage.db.Databases;
import dev.cairn.storage.graph.NodeNotFoundException;

/**
 * Whether an import's bulk writes (the nodes, the import group's members, the processes, the links) pay
 * PostgreSQL's foreign-key checks. Those run row by row, a look-up and a lock of the row named each: a
 * large share of an import's writes (docs/performance.md), most of it on nodes the import had just written. The import
 * checks every reference itself, as sets, before it writes (a row naming what is neither in the archive nor
 * here is refused), so where the database allows it (a superuser, as in the embedded mode, or a role
 * granted {@code SET} on the parameter {@code session_replication_role}) those writes run with
 * {@code session_replication_role = replica}, which skips the foreign keys' triggers and no others: the
 * graph's own fire always (V18). Elsewhere nothing changes.
 *
 * <p>What the skipped checks' locks guarded, that a row named is not deleted before the import commits,
 * the import does itself: the users and computers are locked before the nodes ({@link NodeIntake}), and
 * the nodes here already that the bulk writes name are locked once those are written ({@link
 * #lockNamedNodes}); one deleted before that fails the import, naming it, as the foreign key would have.
 */
final class ForeignKeyChecks {

    private final Connection c;
    private boolean skipped;

    private ForeignKeyChecks(Connection c, boolean skipped) {
        this.c = c;
        this.skipped = skipped;
    }

    /** The bulk writes begin, in {@code c}'s transaction: the checks are skipped from here if its role may. */
    static ForeignKeyChecks skipIfAllowed(Connection c) throws SQLException {
        Savepoint before = c.setSavepoint();
        try (Statement s = c.createStatement()) {
            s.execute("SET LOCAL session_replication_role = replica");
        } catch (SQLException e) {
            if (!Databases.INSUFFICIENT_PRIVILEGE.equals(e.getSQLState())) {
                throw e;
            }
            // and released: the rows written after a savepoint still in force would be its subtransaction's,
            // which the link guard takes for another transaction's (a sealed node would refuse its links)
            c.rollback(before);
            c.releaseSavepoint(before);
            return new ForeignKeyChecks(c, false);
        }
        c.releaseSavepoint(before);
        return new ForeignKeyChecks(c, true);
    }

    /** True while the bulk writes skip the checks. */
    boolean skipped() {
        return skipped;
    }

    /**
     * The bulk writes are done: locks the nodes here already that they name ({@code named}, a query of
     * their {@code id, uuid}), and checks the rows that follow again.
     */
    void resume(String named) throws SQLException {
        if (!skipped) {
            return;
        }
        lockNamedNodes(named);
        try (Statement s = c.createStatement()) {
            s.execute("SET LOCAL session_replication_role = origin");
        }
        skipped = false;
    }

    /**
     * Locks the nodes {@code named} finds against deletion until the import commits, as a foreign key's
     * check does; throws naming one that is no longer here.
     */
    private void lockNamedNodes(String named) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("WITH named AS (" + named + "), locked AS (SELECT id FROM node WHERE"
                        + " id IN (SELECT id FROM named) FOR KEY SHARE) SELECT n.uuid FROM named n LEFT JOIN"
                        + " locked l ON l.id = n.id WHERE l.id IS NULL LIMIT 1")) {
            if (r.next()) {
                throw new NodeNotFoundException("importing the archive: node " + r.getString(1)
                        + ", which the archive's rows name, was deleted here while the import ran");
            }
        }
    }
}
