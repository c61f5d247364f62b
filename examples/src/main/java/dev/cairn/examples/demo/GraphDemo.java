package dev.cairn.examples.demo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.DictData;
import dev.cairn.storage.graph.FloatData;
import dev.cairn.storage.graph.FolderData;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.graph.StructureData;
import dev.cairn.storage.graph.WorkChainNode;
import dev.cairn.storage.graph.computers.ComputerSpec;
import dev.cairn.storage.graph.computers.ComputerStore;
import dev.cairn.storage.graph.traversal.DeletionPlan;
import dev.cairn.storage.graph.traversal.DeletionResult;
import dev.cairn.storage.graph.traversal.NodeDeleter;
import dev.cairn.storage.graph.traversal.TraversalRules;
import dev.cairn.storage.graph.users.UserStore;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.query.Filter;
import dev.cairn.storage.query.GraphQuery;
import dev.cairn.storage.query.Order;
import dev.cairn.storage.query.Projection;
import dev.cairn.storage.query.QueryBuilder;
import dev.cairn.storage.query.QuerySpec;
import dev.cairn.storage.query.Row;

/**
 * The provenance graph on a real PostgreSQL: a fresh database, a small study (structures
 * relaxed by a calculation each, under one work chain), its hashes, queries over it, the
 * rules refusing bad writes, and a deletion planned and done.
 *
 * <pre>GraphDemo ADMIN_JDBC_URL CONTAINER_DIR</pre>
 */
public final class GraphDemo {

    private static final String DATABASE = "cairn_demo";

    public static void main(String[] args) throws Exception {
        String admin = args[0];
        Path objects = Path.of(args[1]);
        String url = Demos.freshDatabase(admin, DATABASE);
        step("database " + DATABASE + ": schema migrated by Flyway, mapping validated by Hibernate");
        long t0 = System.nanoTime();
        try (Database db = Database.open(DatabaseConfig.of(url).withPoolSize(4));
                Container container = openContainer(objects)) {
            done(t0);
            UserStore users = new UserStore(db);
            long me = users.create("demo@cairn.dev", "Demo", "User", "Cairn").id();
            users.setDefault("demo@cairn.dev");
            long localhost = new ComputerStore(db)
                    .create(ComputerSpec.of("localhost", "localhost", "core.local", "core.direct"))
                    .id();
            GraphStore graph = new GraphStore(db, container, me);
            new GraphDemo(db, graph, localhost).run();
        }
    }

    private final Database db;
    private final GraphStore graph;
    private final long computer;

    private GraphDemo(Database db, GraphStore graph, long computer) {
        this.db = db;
        this.graph = graph;
        this.computer = computer;
    }

    private void run() throws Exception {
        // 1. many structures in one batch
        int count = 5_000;
        List<Node> structures = new ArrayList<>(count);
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < count; i++) {
            structures.add(structure(random));
        }
        step("storing " + count + " structures in one batch (COPY, one transaction)");
        long t = System.nanoTime();
        graph.storeAll(structures);
        done(t, count);

        // 2. a work chain relaxing 200 of them: calculations, outputs, links, all in one batch
        DictData parameters = graph.store(new DictData(Map.of("cutoff", 40.0, "smearing", "gaussian")));
        WorkChainNode study = new WorkChainNode("demo.relax_all");
        study.setProcessState("finished");
        study.setExitStatus(0);
        study.sealBeforeStore(); // over when written: it takes all its links in the batch that stores it
        study.addIncoming(parameters, LinkType.INPUT_WORK, "parameters");
        List<Node> batch = new ArrayList<>(List.of(study));
        List<FloatData> energies = new ArrayList<>();
        CalcFunctionNode firstRelax = null;
        for (int i = 0; i < 200; i++) {
            StructureData input = (StructureData) structures.get(i);
            CalcFunctionNode relax = new CalcFunctionNode("demo.relax");
            relax.addIncoming(input, LinkType.INPUT_CALC, "structure");
            relax.addIncoming(parameters, LinkType.INPUT_CALC, "parameters");
            relax.addIncoming(study, LinkType.CALL_CALC, "relax_" + i);
            relax.setComputerId(computer);
            relax.setProcessState("finished");
            relax.setExitStatus(0);
            relax.sealBeforeStore();
            if (firstRelax == null) {
                firstRelax = relax;
            }
            FloatData energy = new FloatData(-5.0 * input.sites().size() + random.nextDouble(-1, 1));
            energy.addIncoming(relax, LinkType.CREATE, "energy");
            if (i < 3) {
                energy.addIncoming(study, LinkType.RETURN, "best_" + i);
            }
            batch.addAll(List.of(relax, energy));
            energies.add(energy);
        }
        step("storing a work chain with 200 calculations and their outputs (601 nodes, 1,004 links)");
        t = System.nanoTime();
        graph.storeAll(batch);
        done(t);

        // 3. files
        FolderData folder = new FolderData();
        folder.files().put("INCAR", "ENCUT = 400\n".getBytes());
        folder.files().put("out/log.txt", "converged after 12 steps\n".getBytes());
        graph.store(folder);
        say("a folder node: files " + folder.files().keys().keySet() + " in the object store, 'out/log.txt' reads \""
                + new String(graph.readFile(folder, "out/log.txt")).strip() + "\"");

        // 4. hashes: the same calculation on the same inputs has the same hash
        CalcFunctionNode again = new CalcFunctionNode("demo.relax");
        again.addIncoming(structures.getFirst(), LinkType.INPUT_CALC, "structure");
        again.addIncoming(parameters, LinkType.INPUT_CALC, "parameters");
        again.setComputerId(computer);
        graph.store(again);
        String first = firstRelax.hash();
        say("hash of the first relaxation  " + first);
        say("hash of the same calculation  " + again.hash()
                + (first.equals(again.hash()) ? "  (equal: a cache hit)" : ""));

        // 5. queries
        queries(parameters);

        // 6. rules
        step("the rules refuse bad writes, naming what was wrong");
        FloatData made = new FloatData(1.0);
        made.addIncoming(again, LinkType.CREATE, "energy");
        try {
            made.addIncoming(again, LinkType.CREATE, "other");
        } catch (ConflictException e) {
            say("  " + e.getMessage());
        }
        try {
            new FloatData(2.0).addIncoming(firstRelax, LinkType.CREATE, "late");
        } catch (ConflictException e) {
            say("  " + e.getMessage());
        }
        try (Connection c = db.connection();
                Statement s = c.createStatement()) {
            s.execute("UPDATE node SET attributes = '{\"value\": 1}' WHERE id = "
                    + energies.getFirst().id());
        } catch (SQLException e) {
            say("  straight SQL: " + e.getMessage().lines().findFirst().orElse(""));
        }

        // 7. deletion: what deleting the shared parameters would take with it
        NodeDeleter deleter = new NodeDeleter(db);
        step("dry run: deleting the parameters node");
        try (DeletionPlan plan = deleter.plan(NodeIds.of(parameters.id()), TraversalRules.DELETE)) {
            say("  would delete " + plan.nodeCount() + " nodes: " + plan.countsByNodeType());
        }
        t = System.nanoTime();
        DeletionResult result = deleter.delete(NodeIds.of(structures.get(10).id()), TraversalRules.DELETE);
        say("deleted structure " + structures.get(10).id() + " and what it caused: " + result.nodesByType() + ", "
                + result.links() + " links (" + ms(t) + ")");
    }

    private void queries(DictData parameters) {
        step("queries: one SQL statement each, bound parameters only");
        QuerySpec big = QueryBuilder.start()
                .node(
                        "s",
                        v -> v.exactType(StructureData.TYPE)
                                .where(Filter.field("attributes.sites").longer(32)))
                .build();
        long t = System.nanoTime();
        say("  structures with more than 32 sites: " + GraphQuery.on(db, big).count() + " (" + ms(t) + ")");

        QuerySpec lowest = QueryBuilder.start()
                .node(
                        "calc",
                        v -> v.exactType(CalcFunctionNode.TYPE)
                                .where(Filter.field("process_type").eq("demo.relax")))
                .node(
                        "e",
                        v -> v.withIncoming("calc")
                                .edgeWhere(Filter.field("label").eq("energy"))
                                .where(Filter.field("attributes.value").lt(-300))
                                .project("id", "attributes.value"))
                .orderBy(Order.asc("e", "id"))
                .limit(3)
                .build();
        say("  the same query as JSON: " + lowest.toJson());
        for (Row row : GraphQuery.on(db, lowest).all()) {
            say("    energy node " + row.get(0) + ": " + row.get(1));
        }

        QuerySpec perType = QueryBuilder.start()
                .node("n", v -> v.project(Projection.of("node_type"), Projection.count("id")))
                .build();
        say("  nodes per type, counted in the database:");
        for (Row row : GraphQuery.on(db, perType).all()) {
            say("    " + row.get(0) + " " + row.get(1));
        }

        QuerySpec descendants = QueryBuilder.start()
                .node("p", v -> v.where(Filter.field("id").eq(parameters.id())))
                .node("d", v -> v.withAncestors("p").allLinks().project("id"))
                .build();
        t = System.nanoTime();
        say("  descendants of the parameters through every link type: "
                + GraphQuery.on(db, descendants).count() + " (" + ms(t) + ")");
    }

    private static StructureData structure(SplittableRandom random) {
        double a = 3 + random.nextDouble(9);
        int sites = 8 + random.nextInt(57);
        List<StructureData.Site> list = new ArrayList<>();
        for (int i = 0; i < sites; i++) {
            list.add(new StructureData.Site(
                    i % 3 == 0 ? "Ba" : "O", random.nextDouble(a), random.nextDouble(a), random.nextDouble(a)));
        }
        return new StructureData(
                new double[][] {{a, 0, 0}, {0, a, 0}, {0, 0, a}},
                new boolean[] {true, true, true},
                List.of(StructureData.Kind.of("Ba", 137.327), StructureData.Kind.of("O", 15.999)),
                list);
    }

    private static Container openContainer(Path dir) throws Exception {
        if (Files.exists(dir.resolve("config.json"))) {
            return Container.open(dir);
        }
        return Container.init(dir, ContainerConfig.defaults());
    }

    private static void step(String what) {
        System.out.println("== " + what);
    }

    private static void say(String what) {
        System.out.println(what);
    }

    private static void done(long start) {
        System.out.println("   done in " + ms(start));
    }

    private static void done(long start, int nodes) {
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("   done in %.0f ms (%.0f nodes/s)%n", seconds * 1e3, nodes / seconds);
    }

    private static String ms(long start) {
        return String.format("%.0f ms", (System.nanoTime() - start) / 1e6);
    }
}
