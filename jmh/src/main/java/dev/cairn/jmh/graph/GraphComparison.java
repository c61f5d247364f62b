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
import java.util.stream.Stream;

import dev.cairn.jmh.objects.BenchmarkDirs;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.StructureData;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.query.Filter;
import dev.cairn.storage.query.GraphQuery;
import dev.cairn.storage.query.QueryBuilder;
import dev.cairn.storage.query.QuerySpec;
import dev.cairn.storage.query.Row;

/**
 * Cairn's side of {@code jmh/compare-graph.sh}: runs each phase on the shared workload
 * against a fresh database and prints {@code phase seconds result_count}, one line each.
 * Query phases are the best of three, like the peer's.
 *
 * <pre>java -cp benchmarks.jar dev.cairn.jmh.graph.GraphComparison WORKLOAD_DIR JDBC_URL [phase,...] [--no-warmup]</pre>
 *
 * Before the phases, the store paths run untimed on structures of a label of their own (see
 * {@link #warmUp}); queries filter on the workload's labels, so no count changes.
 */
public final class GraphComparison {

    /** Label of the warm-up's structures, which no phase asks for. */
    static final String WARM_UP_LABEL = "graph-warm-up";

    static final List<String> PHASES = List.of(
            "store_single",
            "store_files",
            "store_process",
            "store_bulk",
            "project_all",
            "count_longer",
            "project_filtered",
            "value_filter",
            "contains",
            "build_trees",
            "descendants_50",
            "descendants_each");

    private final GraphWorkload workload;
    private final Database database;
    private final GraphStore graph;
    private final SingleStores single;
    private final List<Long> chosenRoots = new ArrayList<>();

    private GraphComparison(GraphWorkload workload, Database database, Container objects, long userId) {
        this.workload = workload;
        this.database = database;
        this.graph = new GraphStore(database, objects, userId);
        this.single = new SingleStores(workload, graph);
    }

    public static void main(String[] args) throws Exception {
        List<String> positional =
                Arrays.stream(args).filter(a -> !a.equals("--no-warmup")).toList();
        boolean warmUp = positional.size() == args.length;
        if (positional.size() < 2) {
            System.err.println(
                    "usage: GraphComparison WORKLOAD_DIR JDBC_URL [phase,...] [--no-warmup]; phases: " + PHASES);
            System.exit(2);
        }
        Set<String> phases = new LinkedHashSet<>(
                positional.size() > 2 ? Arrays.asList(positional.get(2).split(",")) : PHASES);
        if (!PHASES.containsAll(phases)) {
            System.err.println("unknown phase in " + phases + "; phases: " + PHASES);
            System.exit(2);
        }
        GraphWorkload workload = GraphWorkload.open(Path.of(positional.get(0)));
        // the files' object store, on the file system of java.io.tmpdir (the peer's repository is in /tmp too)
        Path objects = BenchmarkDirs.newDir("graph-objects");
        try (Database database =
                        Database.open(DatabaseConfig.of(positional.get(1)).withPoolSize(4));
                Container container = Container.init(objects, ContainerConfig.defaults())) {
            GraphComparison run = new GraphComparison(workload, database, container, GraphBench.user(database));
            if (warmUp) {
                run.warmUp();
            }
            for (String phase : PHASES) {
                if (phases.contains(phase)) {
                    run.run(phase);
                }
            }
        } finally {
            BenchmarkDirs.delete(objects);
        }
    }

    /**
     * A server runs warm, as the object-store comparison assumes too: 300 structures stored one by one,
     * 3,000 in batches of 1,000, 300 files and 100 processes let the JIT compile the store paths before
     * anything is timed.
     */
    private void warmUp() {
        List<Map<String, Object>> structures = GraphBench.structures(3_300, 7);
        List<Node> nodes = new ArrayList<>();
        for (Map<String, Object> attributes : structures) {
            StructureData s = StructureData.of(attributes);
            s.setLabel(WARM_UP_LABEL);
            nodes.add(s);
        }
        for (Node node : nodes.subList(0, 300)) {
            graph.store(node);
        }
        for (int from = 300; from < nodes.size(); from += 1_000) {
            graph.storeAll(nodes.subList(from, Math.min(from + 1_000, nodes.size())));
        }
        single.warmUp(300, 100, WARM_UP_LABEL);
    }

    private void run(String phase) throws Exception {
        if (phase.startsWith("descendants")) {
            findRoots();
        }
        long[] result = switch (phase) {
            case "store_single" -> single.structures();
            case "store_files" -> single.files();
            case "store_process" -> single.processes();
            case "store_bulk" -> storeBulk();
            case "build_trees" -> buildTrees();
            case "project_all" ->
                best(() -> rows(structures(workload.label("bulk"))
                        .project("attributes.cell", "attributes.kinds", "attributes.sites")));
            case "count_longer" ->
                best(() -> GraphQuery.on(
                                database,
                                structures(workload.label("bulk"))
                                        .where(Filter.field("attributes.sites").longer(sitesLonger()))
                                        .end())
                        .count());
            case "project_filtered" ->
                best(() -> rows(structures(workload.label("bulk"))
                        .where(Filter.field("attributes.sites").longer(sitesLonger()))
                        .project("id", "attributes.cell", "attributes.sites")));
            case "value_filter" ->
                best(() -> rows(structures(workload.label("bulk"))
                        .where(Filter.field("attributes.cell.0.0")
                                .gt(((Number) workload.queries().get("cell_00_above")).doubleValue()))
                        .project("id")));
            case "contains" ->
                best(() -> rows(structures(workload.label("bulk"))
                        .where(Filter.field("attributes.kinds")
                                .contains(List.of(
                                        Map.of("name", workload.queries().get("kinds_contain_name")))))
                        .project("id")));
            case "descendants_50" -> best(this::descendantsInOneQuery);
            case "descendants_each" -> best(this::descendantsOneRootAtATime);
            default -> throw new IllegalArgumentException(phase);
        };
        System.out.printf("%s %.4f %d%n", phase, result[0] / 1e9, result[1]);
        System.out.flush();
    }

    /** A query phase: the best of three runs, like the peer's. */
    private long[] best(Counted query) throws Exception {
        long best = Long.MAX_VALUE;
        long count = -1;
        for (int run = 0; run < 3; run++) {
            long start = System.nanoTime();
            count = query.run();
            best = Math.min(best, System.nanoTime() - start);
        }
        return new long[] {best, count};
    }

    private interface Counted {
        long run() throws Exception;
    }

    /** The structure vertex with the workload's label, to be completed by a phase. */
    private StructureQuery structures(String label) {
        return new StructureQuery(label);
    }

    /** A one-vertex query on the benchmark's structures. */
    private final class StructureQuery {
        private final String label;
        private final List<Filter> filters = new ArrayList<>();
        private String[] projections = {"id"};

        StructureQuery(String label) {
            this.label = label;
        }

        StructureQuery where(Filter filter) {
            filters.add(filter);
            return this;
        }

        StructureQuery project(String... fields) {
            projections = fields;
            return this;
        }

        QuerySpec end() {
            return QueryBuilder.start()
                    .node("s", v -> {
                        v.exactType(StructureData.TYPE)
                                .where(Filter.field("label").eq(label))
                                .project(projections);
                        filters.forEach(v::where);
                    })
                    .build();
        }
    }

    /** Runs a query to its end as Java objects, touching every value; returns the row count. */
    private long rows(StructureQuery query) {
        long count = 0;
        long touched = 0;
        // two cursors in one snapshot: PostgreSQL gives a cursor no parallel workers
        try (Stream<Row> rows = GraphQuery.on(database, query.end()).parallelStream(2)) {
            for (Row row : (Iterable<Row>) rows::iterator) {
                count++;
                touched += row.size();
            }
        }
        if (touched < count) {
            throw new IllegalStateException("rows without values");
        }
        return count;
    }

    private long descendantsInOneQuery() {
        QuerySpec spec = QueryBuilder.start()
                .node("root", v -> v.where(Filter.field("id").in(chosenRoots)).project("id"))
                .node("d", v -> v.withAncestors("root").project("id"))
                .build();
        try (Stream<Row> rows = GraphQuery.on(database, spec).stream()) {
            return rows.count();
        }
    }

    private long descendantsOneRootAtATime() {
        long total = 0;
        for (long root : chosenRoots) {
            QuerySpec spec = QueryBuilder.start()
                    .node("root", v -> v.where(Filter.field("id").eq(root)))
                    .node("d", v -> v.withAncestors("root").project("id"))
                    .build();
            total += GraphQuery.on(database, spec).all().size();
        }
        return total;
    }

    private int sitesLonger() {
        return ((Number) workload.queries().get("sites_longer_than")).intValue();
    }

    /** Batches of structures, each stored in one transaction; reading the file is not timed. */
    private long[] storeBulk() throws Exception {
        String label = workload.label("bulk");
        long[] elapsed = {0};
        long[] count = {0};
        workload.forEachBatch("structures.jsonl", workload.bulkBatch(), batch -> {
            long start = System.nanoTime();
            // building (cleaning every value) is the JVM's share; it has both cores while the server waits
            List<Node> nodes = batch.parallelStream()
                    .map(attributes -> {
                        StructureData s = StructureData.of(attributes);
                        s.setLabel(label);
                        return (Node) s;
                    })
                    .toList();
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
            for (IntData root : roots) {
                rootIds.add(root.id());
            }
        }
        long elapsed = System.nanoTime() - start;
        for (int i = 0; i < rootIds.size(); i++) {
            if (chosen.contains(i)) {
                chosenRoots.add(rootIds.get(i));
            }
        }
        analyze();
        return new long[] {elapsed, nodes};
    }

    private void analyze() throws Exception {
        try (Connection c = database.connection();
                Statement s = c.createStatement()) {
            s.execute("ANALYZE node");
            s.execute("ANALYZE link");
        }
    }

    /** Finds the chosen roots of trees built by an earlier run, when build_trees is not among the phases. */
    private void findRoots() throws Exception {
        if (!chosenRoots.isEmpty()) {
            return;
        }
        List<Long> roots = new ArrayList<>();
        try (Connection c = database.connection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id FROM node WHERE label = 'tree-root' ORDER BY id")) {
            while (rs.next()) {
                roots.add(rs.getLong(1));
            }
        }
        for (int i : workload.chosenRoots()) {
            if (i < roots.size()) {
                chosenRoots.add(roots.get(i));
            }
        }
    }
}
