package dev.cairn.storage.backup;

import static dev.cairn.storage.backup.DatabaseDump.quote;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * Loads a dump into a schema at the dump's version, in one transaction: either every row is in or none.
 * User triggers are off while loading, since the rows were checked when first written and the
 * statistics triggers would count them twice (their tallies are in the dump); foreign keys stay on
 * and hold, because the tables come in the dump's load order. COPY writes identity columns as given,
 * and each sequence is set back to where it was.
 */
final class DatabaseLoad {

    private DatabaseLoad() {}

    /** What the schema holds: "table (n rows)" for each table with rows; empty when there is nothing. */
    static List<String> contents(Connection c) throws SQLException {
        List<String> found = new ArrayList<>();
        for (String table : DatabaseDump.loadOrder(c)) {
            try (Statement s = c.createStatement();
                    ResultSet r = s.executeQuery("SELECT count(*) FROM " + quote(table))) {
                r.next();
                if (r.getLong(1) > 0) {
                    found.add(table + " (" + r.getLong(1) + " rows)");
                }
            }
        }
        return found;
    }

    static void load(Connection c, Path backup, Manifest manifest, Consumer<String> progress)
            throws SQLException, IOException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
            try (Statement s = c.createStatement()) {
                for (Manifest.Table t : manifest.tables()) {
                    s.execute("ALTER TABLE " + quote(t.name()) + " DISABLE TRIGGER USER");
                }
            }
            for (Manifest.Table t : manifest.tables()) {
                progress.accept("table " + t.name());
                String cols = String.join(
                        ", ", t.columns().stream().map(DatabaseDump::quote).toList());
                Path file = backup.resolve(DatabaseDump.FOLDER).resolve(t.name() + ".copy");
                try (InputStream in = Files.newInputStream(file)) {
                    long rows = copy.copyIn("COPY " + quote(t.name()) + " (" + cols + ") FROM STDIN", in);
                    if (rows != t.rows()) {
                        throw new IOException(file + " holds " + rows + " rows; the manifest says " + t.rows());
                    }
                } catch (SQLException e) {
                    throw new SQLException(
                            file + " does not load (a damaged or truncated dump): " + e.getMessage(),
                            e.getSQLState(),
                            e);
                }
            }
            try (Statement s = c.createStatement()) {
                for (Manifest.Table t : manifest.tables()) {
                    s.execute("ALTER TABLE " + quote(t.name()) + " ENABLE TRIGGER USER");
                }
            }
            try (PreparedStatement s = c.prepareStatement("SELECT setval(quote_ident(?), ?, true)")) {
                for (Manifest.Sequence q : manifest.sequences()) {
                    if (q.lastValue() != null && q.lastValue() > 0) { // unused sequences stay at their start
                        s.setString(1, q.name());
                        s.setLong(2, q.lastValue());
                        s.executeQuery().close();
                    }
                }
            }
            c.commit();
        } catch (SQLException | IOException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }
}
