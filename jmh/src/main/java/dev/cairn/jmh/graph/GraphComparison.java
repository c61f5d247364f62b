package dev.cairn.jmh.graph;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.StructureData;

/**
 * Cairn's side of {@code jmh/compare-graph.sh}: runs each phase on the shared workload
 * against a fresh database and prints {@code phase seconds result_count}, one line each.
 * Query phases are the best of three, like the peer's.
 *
 * <pre>java -cp benchmarks.jar dev.cairn.jmh.graph.GraphComparison WORKLOAD_DIR JDBC_URL [phase,...]</pre>
 */
public final class GraphComparison {

    static final List<String> PHASES = List.of("store_single", "store_bulk", "build_trees");

    private final GraphWorkload workload;
    private final Database database;
    private final GraphStore graph;
    private final List<Long> chosenRoots = new ArrayList<>();

    private GraphComparison(GraphWorkload workload, Database database, long userId) {
        this.workload = workload;
        this.database = database;
        this.graph = new GraphStore(database, null, userId);
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: GraphComparison WORKLOAD_DIR JDBC_URL [phase,...]; phases: " + PHASES);
            System.exit(2);
        }
        Set<String> phases = new LinkedHashSet<>(args.length > 2 ? Arrays.asList(args[2].split(",")) : PHASES);
        if (!PHASES.containsAll(phases)) {
            System.err.println("unknown phase in " + phases + "; phases: " + PHASES);
            System.exit(2);
        }
        GraphWorkload workload = GraphWorkload.open(Path.of(args[0]));
        try (Database database = Database.open(DatabaseConfig.of(args[1]).withPoolSize(4))) {
            GraphComparison run = new GraphComparison(workload, database, user(database));
            for (String phase : PHASES)
                if (phases.contains(phase))
                    run.run(phase);
        }
    }

    private static long user(Database database) throws Exception {
        try (Connection c = database.connection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("INSERT INTO app_user (email) VALUES ('compare@cairn.dev') "
                 + "ON CONFLICT (email) DO UPDATE SET email = excluded.email RETURNING id")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void run(String phase) throws Exception {
        long[] result = switch (phase) {
            case "store_single" -> storeSingle();
            case "store_bulk" -> storeBulk();
            case "build_trees" -> buildTrees();
            default -> throw new IllegalArgumentException(phase);
        };
        System.out.printf("%s %.4f %d%n", phase, result[0] / 1e9, result[1]);
        System.out.flush();
    }

    /** Each structure built from its attributes and stored in a transaction of its own. */
    private long[] storeSingle() throws Exception {
        String label = workload.label("single");
        long[] elapsed = {0};
        long[] count = {0};
        workload.forEachBatch("single.jsonl", Integer.MAX_VALUE, batch -> {
            long start = System.nanoTime();
            for (Map<String, Object> attributes : batch) {
                StructureData s = StructureData.of(attributes);
                s.setLabel(label);
                graph.store(s);
            }
            elapsed[0] += System.nanoTime() - start;
            count[0] += batch.size();
        });
        return new long[] {elapsed[0], count[0]};
    }

    /** Batches of structures, each stored in one transaction; reading the file is not timed. */
    private long[] storeBulk() throws Exception {
        String label = workload.label("bulk");
        long[] elapsed = {0};
        long[] count = {0};
        workload.forEachBatch("structures.jsonl", workload.bulkBatch(), batch -> {
            long start = System.nanoTime();
            List<Node> nodes = new ArrayList<>(batch.size());
            for (Map<String, Object> attributes : batch) {
                StructureData s = StructureData.of(attributes);
                s.setLabel(label);
                nodes.add(s);
            }
            graph.storeAll(nodes);
            elapsed[0] += System.nanoTime() - start;
            count[0] += batch.size();
        });
        analyze();
        return new long[] {elapsed[0], count[0]};
    }

    /**
     * The trees of the descendant queries: a root Int; each data node above the depth is
     * the single input of a calculation that creates {@code branching} outputs.
     */
    private long[] buildTrees() throws Exception {
        int trees = workload.treeInt("trees");
        int branching = workload.treeInt("branching");
        int depth = workload.treeInt("depth");
        Set<Integer> chosen = Set.copyOf(workload.chosenRoots());
        List<Long> rootIds = new ArrayList<>();
        long start = System.nanoTime();
        long nodes = 0;
        int perBatch = 25;
        for (int first = 0; first < trees; first += perBatch) {
            List<Node> batch = new ArrayList<>();
            List<IntData> roots = new ArrayList<>();
            for (int t = first; t < Math.min(trees, first + perBatch); t++) {
                IntData root = new IntData(t);
                root.setLabel("tree-root");
                roots.add(root);
                batch.add(root);
                List<IntData> frontier = List.of(root);
                for (int d = 1; d <= depth; d++) {
                    List<IntData> next = new ArrayList<>();
                    for (IntData input : frontier) {
                        CalcFunctionNode calc = new CalcFunctionNode("bench_tc.split");
                        calc.setLabel("tree-calc");
                        calc.setProcessState("finished");
                        calc.setExitStatus(0);
                        calc.setStaticAttribute("function_name", "split");
                        calc.addIncoming(input, LinkType.INPUT_CALC, "x");
                        calc.sealBeforeStore();
                        batch.add(calc);
                        for (int j = 0; j < branching; j++) {
                            IntData out = new IntData(j);
                            out.setLabel("tree-d" + d);
                            out.addIncoming(calc, LinkType.CREATE, "out_" + j);
                            batch.add(out);
                            next.add(out);
                        }
                    }
                    frontier = next;
                }
            }
            graph.storeAll(batch);
            nodes += batch.size();
            for (IntData root : roots)
                rootIds.add(root.id());
        }
        long elapsed = System.nanoTime() - start;
        for (int i = 0; i < rootIds.size(); i++)
            if (chosen.contains(i))
                chosenRoots.add(rootIds.get(i));
        analyze();
        return new long[] {elapsed, nodes};
    }

    private void analyze() throws Exception {
        try (Connection c = database.connection(); Statement s = c.createStatement()) {
            s.execute("ANALYZE node");
            s.execute("ANALYZE link");
        }
    }

    List<Long> chosenRootIds() {
        return chosenRoots;
    }

}
