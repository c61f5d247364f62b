package dev.cairn.storage.backup;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * Every table of Cairn's schema (the connection's current schema), dumped with COPY in one REPEATABLE
 * READ transaction, so the files are one consistent state however many writers go on. COPY's text
 * format round-trips every type the schema uses (jsonb as its text, bytea as hex, timestamps with
 * their zone).
 */
final class DatabaseDump {

    static final String FOLDER = "db";
    /** Flyway's own table: a restore makes it again by migrating to the dump's version. */
    static final String HISTORY = "flyway_schema_history";

    private DatabaseDump() {}

    static Manifest dump(Connection c, Path folder, Consumer<String> progress) throws SQLException, IOException {
        Path db = Files.createDirectories(folder.resolve(FOLDER));
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        c.setReadOnly(true);
        try {
            String version = schemaVersion(c);
            String created = Instant.now().toString();
            CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
            List<Manifest.Table> tables = new ArrayList<>();
            for (String table : loadOrder(c)) {
                progress.accept("table " + table);
                List<String> columns = columns(c, table);
                String cols = String.join(
                        ", ", columns.stream().map(DatabaseDump::quote).toList());
                try (OutputStream out = Files.newOutputStream(db.resolve(table + ".copy"))) {
                    long rows = copy.copyOut("COPY " + quote(table) + " (" + cols + ") TO STDOUT", out);
                    tables.add(new Manifest.Table(table, columns, rows));
                }
            }
            List<Manifest.Sequence> sequences = new ArrayList<>();
            try (Statement s = c.createStatement();
                    ResultSet r = s.executeQuery("SELECT sequencename, last_value FROM pg_sequences "
                            + "WHERE schemaname = current_schema() ORDER BY sequencename")) {
                while (r.next()) {
                    long last = r.getLong(2);
                    sequences.add(new Manifest.Sequence(r.getString(1), r.wasNull() ? null : last));
                }
            }
            c.commit();
            return new Manifest(Manifest.FORMAT, version, created, tables, sequences);
        } finally {
            c.rollback();
            c.setReadOnly(false);
            c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            c.setAutoCommit(autoCommit);
        }
    }

    static String schemaVersion(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT version FROM " + HISTORY
                        + " WHERE success AND version IS NOT NULL ORDER BY installed_rank DESC LIMIT 1")) {
            if (!r.next()) {
                throw new SQLException("the database has no migrated schema");
            }
            return r.getString(1);
        }
    }

    /** The schema's tables, each after the tables its foreign keys refer to. */
    static List<String> loadOrder(Connection c) throws SQLException {
        Map<String, Set<String>> refersTo = new LinkedHashMap<>();
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT table_name FROM information_schema.tables "
                        + "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' "
                        + "AND table_name <> '" + HISTORY + "' ORDER BY table_name")) {
            while (r.next()) {
                refersTo.put(r.getString(1), new LinkedHashSet<>());
            }
        }
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT cl.relname, ref.relname FROM pg_constraint k "
                        + "JOIN pg_class cl ON cl.oid = k.conrelid JOIN pg_class ref ON ref.oid = k.confrelid "
                        + "JOIN pg_namespace n ON n.oid = cl.relnamespace "
                        + "WHERE k.contype = 'f' AND n.nspname = current_schema()")) {
            while (r.next()) {
                Set<String> refs = refersTo.get(r.getString(1));
                if (refs != null && !r.getString(1).equals(r.getString(2))) {
                    refs.add(r.getString(2));
                }
            }
        }
        List<String> order = new ArrayList<>();
        Set<String> placed = new LinkedHashSet<>();
        while (placed.size() < refersTo.size()) {
            boolean progressed = false;
            for (var e : refersTo.entrySet()) {
                if (!placed.contains(e.getKey()) && placed.containsAll(e.getValue())) {
                    placed.add(e.getKey());
                    order.add(e.getKey());
                    progressed = true;
                }
            }
            if (!progressed) {
                throw new SQLException("the foreign keys between the tables form a cycle: cannot order "
                        + refersTo.keySet().stream()
                                .filter(t -> !placed.contains(t))
                                .toList());
            }
        }
        return order;
    }

    /** The columns a COPY can write back: generated columns are computed again. */
    static List<String> columns(Connection c, String table) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT column_name FROM information_schema.columns "
                + "WHERE table_schema = current_schema() AND table_name = ? AND is_generated = 'NEVER' "
                + "ORDER BY ordinal_position")) {
            s.setString(1, table);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    columns.add(r.getString(1));
                }
            }
        }
        return columns;
    }

    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
