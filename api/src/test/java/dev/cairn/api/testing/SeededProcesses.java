package dev.cairn.api.testing;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import dev.cairn.engine.Engine;

/**
 * Process nodes written straight into a test's database, many in one statement, for tests that read lists
 * of processes: each column is an SQL expression of {@code i}, the row's number from 1.
 */
public final class SeededProcesses {

    private final Engine engine;
    private final int count;
    private String nodeType = "'process.calculation.calcfunction.CalcFunctionNode.'";
    private String processType = "'seeded'";
    private String label = "''";
    private String ctime = "now() - i * interval '1 second'";
    private String mtime;
    private String attributes = "'{\"process_state\": \"finished\", \"exit_status\": 0}'::jsonb";

    private SeededProcesses(Engine engine, int count) {
        this.engine = engine;
        this.count = count;
    }

    /** {@code count} processes: calculation functions of the type 'seeded' that finished well, a second apart. */
    public static SeededProcesses of(Engine engine, int count) {
        return new SeededProcesses(engine, count);
    }

    public SeededProcesses nodeType(String sql) {
        nodeType = sql;
        return this;
    }

    public SeededProcesses processType(String sql) {
        processType = sql;
        return this;
    }

    public SeededProcesses label(String sql) {
        label = sql;
        return this;
    }

    /** The launch time, and the last change too unless {@link #mtime} says otherwise. */
    public SeededProcesses ctime(String sql) {
        ctime = sql;
        return this;
    }

    public SeededProcesses mtime(String sql) {
        mtime = sql;
        return this;
    }

    public SeededProcesses attributes(String sql) {
        attributes = sql;
        return this;
    }

    /** Inserts them, then has the database's planner look at the table again. */
    public void insert() throws SQLException {
        try (Connection c = engine.database().connection();
                Statement s = c.createStatement()) {
            s.execute("INSERT INTO node (uuid, node_type, process_type, label, ctime, mtime, user_id, attributes)"
                    + " SELECT gen_random_uuid(), " + String.join(", ", nodeType, processType, label, ctime)
                    + ", " + (mtime == null ? ctime : mtime) + ", "
                    + engine.graph().userId() + ", " + attributes
                    + " FROM generate_series(1, " + count + ") i");
            s.execute("ANALYZE node");
        }
    }
}
