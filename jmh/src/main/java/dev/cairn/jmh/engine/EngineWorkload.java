package dev.cairn.jmh.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.cairn.engine.Engine;
import dev.cairn.engine.launch.Launcher;
import dev.cairn.engine.process.Inputs;
import dev.cairn.examples.AddCalcJobWorkChain;
import dev.cairn.examples.AddMultiply;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.computers.ComputerSpec;
import dev.cairn.storage.graph.computers.ComputerStore;

/** What a workload runs and how its results are checked. */
sealed interface EngineWorkload permits EngineWorkload.Functions, EngineWorkload.CalcJobs {

    /** The work chain with input x (different x, different inputs: nothing is shared between phases). */
    Launcher.Launch launch(long x);

    int warmUps();

    /** Top-level work chains with ids in [first, last] that did not finish ok with the expected result. */
    long wrongResults(Engine engine, long first, long last) throws SQLException;

    /**
     * Whether the process nodes from id {@code from} on are exactly {@code expected} ones, every
     * one finished with exit status 0; may add what it counted to {@code result}.
     */
    boolean processesOk(Engine engine, long from, long expected, Map<String, Object> result) throws SQLException;

    /** The calculation jobs' work directories made so far. */
    long workdirs() throws IOException;

    /**
     * Top-level work chains with ids in [first, last] that did not finish ok with a {@code result} equal
     * to {@code expected}, an SQL expression over the integer inputs named in {@code inputs} (each
     * joined as the table of its name).
     */
    static long wrongResults(Engine engine, long first, long last, List<String> inputs, String expected)
            throws SQLException {
        StringBuilder joins = new StringBuilder();
        for (String in : inputs) {
            joins.append(" LEFT JOIN link l")
                    .append(in)
                    .append(" ON l")
                    .append(in)
                    .append(".output_id = w.id AND l")
                    .append(in)
                    .append(".label = '")
                    .append(in)
                    .append("' LEFT JOIN node ")
                    .append(in)
                    .append(" ON ")
                    .append(in)
                    .append(".id = l")
                    .append(in)
                    .append(".input_id");
        }
        return count(
                engine,
                "SELECT count(*) FROM process p JOIN node w ON w.id = p.node_id" + joins
                        + " LEFT JOIN link lr ON lr.input_id = w.id AND lr.type = 'return' AND lr.label = 'result'"
                        + " LEFT JOIN node r ON r.id = lr.output_id"
                        + " WHERE p.node_id BETWEEN ? AND ? AND p.parent_id IS NULL"
                        + " AND (p.state <> 'finished' OR (w.attributes->>'exit_status')::int <> 0"
                        + " OR (r.attributes->>'value')::bigint IS DISTINCT FROM " + expected + ")",
                first,
                last);
    }

    /** The count a query with these id parameters gives. */
    static long count(Engine engine, String sql, long... ids) throws SQLException {
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < ids.length; i++) {
                s.setLong(i + 1, ids[i]);
            }
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** (x + 1) * 2 in one step, through two calcfunctions. */
    record Functions() implements EngineWorkload {

        @Override
        public Launcher.Launch launch(long x) {
            return new Launcher.Launch(
                    AddMultiply.DEFINITION,
                    Inputs.of(
                            AddMultiply.X,
                            new IntData(x),
                            AddMultiply.Y,
                            new IntData(1),
                            AddMultiply.Z,
                            new IntData(2)));
        }

        @Override
        public int warmUps() {
            return 200;
        }

        @Override
        public long wrongResults(Engine engine, long first, long last) throws SQLException {
            return EngineWorkload.wrongResults(
                    engine, first, last, List.of("x"), "((x.attributes->>'value')::bigint + 1) * 2");
        }

        @Override
        public boolean processesOk(Engine engine, long from, long expected, Map<String, Object> result) {
            return true; // the result check covers it: both calcfunctions run inside the step
        }

        @Override
        public long workdirs() {
            return 0;
        }
    }

    /** x + 1 + 1: the bash job adds x and 1 on the computer, a calcfunction adds 1 again. */
    record CalcJobs(InstalledCode bash, Path workdir) implements EngineWorkload {

        /** A computer "localhost" (local transport, direct scheduler, work directories in workdir) and bash on it. */
        static CalcJobs create(Engine engine, Path workdir) {
            long computer = new ComputerStore(engine.database())
                    .create(new ComputerSpec(
                            "localhost",
                            "localhost",
                            "the engine comparison's jobs",
                            "core.local",
                            "core.direct",
                            Map.of("workdir", workdir.toString(), "minimum_job_poll_interval", 0.1)))
                    .id();
            return new CalcJobs(engine.graph().store(new InstalledCode(computer, "/bin/bash")), workdir);
        }

        @Override
        public Launcher.Launch launch(long x) {
            return new Launcher.Launch(
                    AddCalcJobWorkChain.DEFINITION,
                    Inputs.of(
                            AddCalcJobWorkChain.CODE,
                            bash,
                            AddCalcJobWorkChain.X,
                            new IntData(x),
                            AddCalcJobWorkChain.Y,
                            new IntData(1)));
        }

        @Override
        public int warmUps() {
            // workers are long-lived daemons: measure them with their hot paths compiled, not while the JIT works
            return 1000;
        }

        @Override
        public long wrongResults(Engine engine, long first, long last) throws SQLException {
            return EngineWorkload.wrongResults(
                    engine,
                    first,
                    last,
                    List.of("x", "y"),
                    "(x.attributes->>'value')::bigint + 2 * (y.attributes->>'value')::bigint");
        }

        /** Three process nodes per work chain (itself, the job, the calcfunction), all finished ok. */
        @Override
        public boolean processesOk(Engine engine, long from, long expected, Map<String, Object> result)
                throws SQLException {
            long nodes = EngineWorkload.count(
                    engine, "SELECT count(*) FROM node WHERE id >= ? AND node_type LIKE 'process.%'", from);
            long ok = EngineWorkload.count(
                    engine,
                    "SELECT count(*) FROM node WHERE id >= ? AND node_type LIKE 'process.%'"
                            + " AND attributes->>'process_state' = 'finished' AND (attributes->>'exit_status')::int = 0",
                    from);
            result.put("process_nodes", nodes);
            result.put("process_nodes_finished_ok", ok);
            return nodes == expected && ok == expected;
        }

        /** Work directories are workdir/ab/cd/rest (from the job's uuid): the folders three levels down. */
        @Override
        public long workdirs() throws IOException {
            try (Stream<Path> walk = Files.walk(workdir, 3)) {
                return walk.filter(p -> workdir.relativize(p).getNameCount() == 3 && Files.isDirectory(p))
                        .count();
            }
        }
    }
}
