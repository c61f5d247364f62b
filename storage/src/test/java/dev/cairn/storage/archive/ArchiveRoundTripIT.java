package dev.cairn.storage.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.GenericData;
import dev.cairn.storage.graph.GraphFixtures;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.comments.CommentStore;
import dev.cairn.storage.graph.statistics.GraphStatistics;
import dev.cairn.storage.graph.statistics.Statistics;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.objects.ContainerStats;
import dev.cairn.storage.testing.TestDatabase;

/**
 * An installation's graph exported in Cairn's format and imported into another arrives whole and equal
 * (rows, files, hashes that caching finds), a second import adds nothing, a piece of the graph travels
 * as the closure of its starting set, extras merge by mode, a label taken by another computer is given a
 * suffix, the objects land in packs, and an imported calculation is the cache source of a fresh launch.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ArchiveRoundTripIT {

    @RegisterExtension
    static final TestDatabase sourceDb = new TestDatabase();

    @RegisterExtension
    static final TestDatabase targetDb = new TestDatabase();

    @TempDir
    static Path tmp;

    static Installation source;
    static Installation target;
    static ArchiveGraph graph;

    record Installation(Database database, Container container, GraphStore graph) {
        static Installation open(TestDatabase db, Path objects, String email) throws Exception {
            Database database = Database.open(DatabaseConfig.of(db.jdbcUrl()));
            Container container = Container.init(objects, ContainerConfig.defaults());
            return new Installation(
                    database, container, new GraphStore(database, container, GraphFixtures.user(database, email)));
        }

        ArchiveExport exporter() {
            return new ArchiveExport(database, container, "cairn test");
        }

        ImportResult importFile(Path file, ImportOptions options) throws Exception {
            return importFile(file, options, ArchiveProgress.NONE);
        }

        ImportResult importFile(Path file, ImportOptions options, ArchiveProgress progress) throws Exception {
            try (CairnArchiveReader reader = CairnArchiveReader.open(file)) {
                return new ArchiveImport(database, container, graph.userId()).importFrom(reader, options, progress);
            }
        }

        Path exportFile(ExportRequest request, Path file) throws Exception {
            try (CairnArchiveWriter writer = CairnArchiveWriter.toFile(file)) {
                exporter().export(request, writer, ArchiveProgress.NONE);
            }
            return file;
        }

        void close() throws Exception {
            container.close();
            database.close();
        }
    }

    @BeforeAll
    static void open() throws Exception {
        source = Installation.open(sourceDb, tmp.resolve("source-objects"), "source@example.com");
        target = Installation.open(targetDb, tmp.resolve("target-objects"), "target@example.com");
        graph = new ArchiveGraph(source.graph(), source.database(), tmp, "cluster");
        GraphFixtures.computer(target.database(), "cluster");
    }

    @AfterAll
    static void close() throws Exception {
        source.close();
        target.close();
    }

    @Test
    @Order(1)
    void everythingArrivesWholeAndEqualAndASecondImportAddsNothing() throws Exception {
        ArchiveHeader counted = source.exporter().count(ExportRequest.ofEverything());
        Path file = source.exportFile(ExportRequest.ofEverything(), tmp.resolve("all.cairn"));
        assertFalse(Files.exists(tmp.resolve("all.cairn.partial")));

        ImportResult first = target.importFile(file, ImportOptions.defaults());
        assertEquals(counted.counts(), first.header().counts());
        assertEquals(graph.nodes.size(), first.added(ArchivePart.NODES));
        assertEquals(counted.count(ArchivePart.LINKS), first.added(ArchivePart.LINKS));
        assertEquals(counted.count(ArchivePart.OBJECTS), first.added(ArchivePart.OBJECTS));
        assertEquals(4, counted.count(ArchivePart.OBJECTS), "the file, the array, the folder's two files");
        assertEquals(1, first.added(ArchivePart.COMMENTS));
        assertEquals(1, first.added(ArchivePart.LOGS));
        assertTrue(first.group().startsWith("import-"), first.group());

        assertEquals(rows(source, NODES), rows(target, NODES), "every node, its attributes, extras, files and hash");
        assertEquals(rows(source, LINKS), rows(target, LINKS));
        assertEquals(rows(source, GROUP), rows(target, GROUP), "the group and its extras");
        assertEquals(rows(source, COMMENTS), rows(target, COMMENTS));
        assertEquals(rows(source, LOGS), rows(target, LOGS));
        assertSameStatistics("the import counts its data nodes (copied) and processes (inserted) once");
        String computer = single(source, "SELECT uuid FROM computer WHERE id = " + graph.computer);
        assertEquals(
                "cluster_1",
                single(target, "SELECT label FROM computer WHERE uuid = '" + computer + "'"),
                "the label was taken here");

        Node retrieved = target.graph().load(graph.retrieved.uuid());
        assertEquals("energy -42.0\n", new String(target.graph().readFile(retrieved, "sub/aiida.out")));
        Node file1 = target.graph().load(graph.file.uuid());
        assertEquals("seven\n", new String(target.graph().readFile(file1, "out.txt")));
        assertFalse(
                target.graph()
                        .rehash(target.graph().load(graph.calcJob.uuid()).id())
                        .changed(),
                "the imported calculation's hash is the one its class computes: caching finds it");

        ImportResult second = target.importFile(file, ImportOptions.defaults());
        for (ArchivePart part : ArchivePart.values()) {
            assertEquals(0, second.added(part), part + " added again");
        }
        assertEquals(graph.nodes.size(), second.existing());
        assertNull(second.group(), "nothing new, no import group");
        assertEquals(graph.nodes.size(), GraphFixtures.count(target.database(), "node"));
        assertSameStatistics("a second import counts nothing");
    }

    /** The target's statistics are the source's (all of whose nodes it imported), user aside. */
    private static void assertSameStatistics(String why) {
        Statistics here = new GraphStatistics(target.database()).read(null, GraphStatistics.MAX_DAYS);
        Statistics there = new GraphStatistics(source.database()).read(null, GraphStatistics.MAX_DAYS);
        assertEquals(graph.nodes.size(), here.total(), why);
        assertEquals(there.nodeTypes(), here.nodeTypes(), why);
        assertEquals(there.processTypes(), here.processTypes(), why);
        assertEquals(there.processStates(), here.processStates(), why);
        assertEquals(there.days(), here.days(), why);
    }

    @Test
    @Order(2)
    void aGroupTravelsWithTheClosureOfItsMembersAndExtrasMergeByMode() throws Exception {
        source.graph().setExtra(graph.structure, "tag", "ours-changed");
        source.graph().setExtra(graph.structure, "new", 1L);
        target.graph().setExtra(target.graph().load(graph.structure.uuid()), "local", true);
        ExportRequest group = ExportRequest.of(new long[0], new long[] {graph.group.id()}, new long[0]);
        ArchiveHeader counted = source.exporter().count(group);
        assertEquals(graph.nodes.size() - 1, counted.count(ArchivePart.NODES), "all but the Int apart");
        assertEquals(1, counted.count(ArchivePart.GROUPS));
        assertEquals(1, counted.count(ArchivePart.GROUP_MEMBERS));

        Path file = source.exportFile(group, tmp.resolve("group.cairn"));
        target.importFile(file, ImportOptions.defaults());
        Map<String, Object> kept = target.graph().load(graph.structure.uuid()).extras();
        assertEquals(Map.of("tag", "relaxed", "new", 1L, "local", true), kept, "kcl: keep ours, create new, leave");

        target.importFile(file, ImportOptions.defaults().withMergeExtras("ncu"));
        assertEquals(
                Map.of("tag", "ours-changed", "new", 1L),
                target.graph().load(graph.structure.uuid()).extras(),
                "ncu: drop ours only, create new, update on collision");
    }

    @Test
    @Order(3)
    void aNodeOfATypeNoPluginProvidesIsKeptAndExportedBackUnchanged() throws Exception {
        UUID plugin = UUID.randomUUID();
        Path file = new ArchiveBuilder()
                .node(plugin, "data.quantumespresso.bands.BandsData.", "{\"units\": \"eV\", \"nbands\": 8}", "{}")
                .write(tmp.resolve("plugin.cairn"));
        target.importFile(file, ImportOptions.defaults());
        Node read = target.graph().load(plugin);
        assertTrue(read instanceof GenericData, read.getClass().getName());
        assertEquals("data.quantumespresso.bands.BandsData.", read.nodeType());
        assertEquals(Map.of("units", "eV", "nbands", 8L), read.attributes());

        ExportRequest one = ExportRequest.of(new long[] {read.id()}, new long[0], new long[0]);
        Path back = target.exportFile(one, tmp.resolve("plugin-back.cairn"));
        source.importFile(back, ImportOptions.defaults());
        Node again = source.graph().load(plugin);
        assertEquals(read.nodeType(), again.nodeType());
        assertEquals(read.attributes(), again.attributes());
        assertEquals(
                single(target, "SELECT hash FROM node WHERE uuid = '" + plugin + "'"),
                single(source, "SELECT hash FROM node WHERE uuid = '" + plugin + "'"));
    }

    @Test
    @Order(4)
    void commentsAlreadyHereMergeByMode() throws Exception {
        Node calc = source.graph().load(graph.calcFunction.uuid());
        CommentStore sourceComments = new CommentStore(source.database());
        CommentStore targetComments = new CommentStore(target.database());
        long ours = targetComments
                .forNode(target.graph().load(calc.uuid()).id())
                .get(0)
                .id();
        targetComments.update(ours, "edited here");
        long theirs = sourceComments.forNode(calc.id()).get(0).id();
        sourceComments.update(theirs, "edited there, later");
        Path file = source.exportFile(
                ExportRequest.of(new long[] {calc.id()}, new long[0], new long[0]), tmp.resolve("comments.cairn"));

        target.importFile(file, ImportOptions.defaults());
        assertEquals("edited here", targetComments.get(ours).content(), "leave");
        target.importFile(file, ImportOptions.defaults().withComments(ImportOptions.CommentMerge.NEWEST));
        assertEquals("edited there, later", targetComments.get(ours).content(), "newest: theirs changed later");
        targetComments.update(ours, "edited here again, latest");
        target.importFile(file, ImportOptions.defaults().withComments(ImportOptions.CommentMerge.NEWEST));
        assertEquals("edited here again, latest", targetComments.get(ours).content(), "newest: ours is newer");
        target.importFile(file, ImportOptions.defaults().withComments(ImportOptions.CommentMerge.OVERWRITE));
        assertEquals("edited there, later", targetComments.get(ours).content(), "overwrite");
    }

    @Test
    @Order(5)
    void anUnsealedProcessIsRefusedByName() {
        IntData in = source.graph().store(new IntData(1));
        CalcFunctionNode running = new CalcFunctionNode("cairn.test.running");
        running.addIncoming(in, LinkType.INPUT_CALC, "x");
        running.setProcessState("running");
        source.graph().store(running);
        ConflictException e = assertThrows(
                ConflictException.class,
                () -> source.exporter().count(ExportRequest.of(new long[] {running.id()}, new long[0], new long[0])));
        assertTrue(
                e.getMessage().contains(running.uuid().toString())
                        && e.getMessage().contains("not sealed"),
                e.getMessage());
    }

    /**
     * An archive part here and part new: the nodes here give their ids and hashes, the new calculation's
     * hash is made from its input here, and only the new rows are written.
     */
    @Test
    @Order(6)
    void anArchiveWithSomeNodesHereAddsOnlyTheRestAndHashesFromThoseHere() throws Exception {
        UUID input = UUID.randomUUID();
        UUID calc = UUID.randomUUID();
        UUID output = UUID.randomUUID();
        target.importFile(new ArchiveBuilder().data(input).write(tmp.resolve("input.cairn")), ImportOptions.defaults());
        long nodes = GraphFixtures.count(target.database(), "node");

        // more than one batch of 2,000 rows, the calculation in the second: the import group is made in
        // the first, and its members come batch by batch, the new processes once they are inserted
        ArchiveBuilder more = new ArchiveBuilder().data(input);
        for (int i = 0; i < 2_500; i++) {
            more.data(UUID.randomUUID());
        }
        ImportResult result = target.importFile(
                more.calc(calc)
                        .data(output)
                        .link(input, calc, "input_calc", "x")
                        .link(calc, output, "create", "result")
                        .write(tmp.resolve("more.cairn")),
                ImportOptions.defaults());
        assertEquals(2_502, result.added(ArchivePart.NODES));
        assertEquals(1, result.existing());
        assertEquals(2, result.added(ArchivePart.LINKS));
        assertEquals(nodes + 2_502, GraphFixtures.count(target.database(), "node"));
        assertEquals(
                "2503",
                single(
                        target,
                        "SELECT count(*) FROM group_member m JOIN node_group g ON g.id = m.group_id WHERE g.label = '"
                                + result.group() + "' AND g.type_string = 'core.import'"),
                "the import group holds every node of the archive: the one here, the new data and process");
        Node imported = target.graph().load(calc);
        assertTrue(imported.hash() != null, "the calculation's input is here, so it has a hash");
        assertFalse(target.graph().rehash(imported.id()).changed(), "made from the hash of the input here");
        assertFalse(target.graph().rehash(target.graph().load(output).id()).changed());
    }

    /**
     * The extras modes test 2 leaves out, each on a node here whose extras are {ours: 1, both: "ours"}
     * and an archive that gives it {theirs: 2, both: "theirs"}.
     */
    @Test
    @Order(7)
    void extrasMergeDeletesKeysInBothWithDAndDropsOrSkipsKeysOnOneSideWithN() throws Exception {
        assertEquals(
                Map.of("ours", 1L, "theirs", 2L),
                mergedExtras("kcd"),
                "kcd: keep ours only, create theirs only, delete the keys in both");
        assertEquals(
                Map.of("both", "ours", "theirs", 2L),
                mergedExtras("ncl"),
                "ncl: drop ours only, create theirs only, leave ours on a collision");
        assertEquals(
                Map.of("ours", 1L, "both", "ours"),
                mergedExtras("knl"),
                "knl: keep ours only, skip theirs only, leave ours on a collision");
        assertEquals(Map.of("both", "theirs"), mergedExtras("nnu"), "nnu: only the collision, updated");
        assertEquals(Map.of(), mergedExtras("nnd"), "nnd: nothing is left");
    }

    /** The target's container was empty before test 1, and only imports have written to it since. */
    @Test
    @Order(8)
    void importedObjectsGoStraightIntoPacksNoneLoose() throws Exception {
        ContainerStats stats = target.container().stats();
        assertEquals(0, stats.looseObjects(), "an import writes no loose object: " + stats);
        assertEquals(4, stats.packedObjects(), "the four objects of the first import, packed: " + stats);
        Node retrieved = target.graph().load(graph.retrieved.uuid());
        assertEquals("energy -42.0\n", new String(target.graph().readFile(retrieved, "sub/aiida.out")));
    }

    /**
     * What the engine does to find a cache source, within storage: the hash {@link GraphStore#hashOf} gives
     * a fresh launch of the same process type on the same (imported) inputs, looked up with the conditions
     * of the engine's {@code CacheLookup}, finds the calculation imported by test 1.
     */
    @Test
    @Order(9)
    void anImportedCalculationIsTheCacheSourceOfAFreshLaunchOnItsInputs() throws Exception {
        CalcFunctionNode launch = new CalcFunctionNode(graph.calcFunction.processType());
        launch.addIncoming(target.graph().load(graph.x.uuid()), LinkType.INPUT_CALC, "x");
        assertEquals(
                List.of(graph.calcFunction.uuid().toString()),
                cacheSources(launch),
                "the imported calcfunction has the hash a launch on the same input looks up");

        CalcFunctionNode other = new CalcFunctionNode(graph.calcFunction.processType());
        other.addIncoming(target.graph().load(graph.apart.uuid()), LinkType.INPUT_CALC, "x");
        assertEquals(List.of(), cacheSources(other), "another input, another hash: no source");
    }

    /** The extras of a node here with {ours: 1, both: "ours"} once an archive gives it {theirs: 2, both: "theirs"}. */
    private static Map<String, Object> mergedExtras(String mode) throws Exception {
        UUID uuid = UUID.randomUUID();
        target.importFile(
                new ArchiveBuilder().data(uuid).write(tmp.resolve("extras-here.cairn")), ImportOptions.defaults());
        Node here = target.graph().load(uuid);
        target.graph().setExtra(here, "ours", 1L);
        target.graph().setExtra(here, "both", "ours");
        Path theirs = new ArchiveBuilder()
                .node(uuid, "data.core.int.Int.", "{\"value\": 1}", "{}", "{\"theirs\": 2, \"both\": \"theirs\"}")
                .write(tmp.resolve("extras-there.cairn"));
        ImportResult result = target.importFile(theirs, ImportOptions.defaults().withMergeExtras(mode));
        assertEquals(1, result.existing(), mode + ": the node is here already");
        return target.graph().load(uuid).extras();
    }

    /** The uuids of the nodes the engine's cache lookup would take as a source for {@code launch}. */
    private static List<String> cacheSources(ProcessNode launch) throws SQLException {
        List<String> uuids = new ArrayList<>();
        try (Connection c = target.database().connection();
                PreparedStatement s = c.prepareStatement(
                        "SELECT n.uuid FROM node n WHERE n.hash = ? AND n.node_type = ?"
                                + " AND n.process_type = ? AND n.attributes ->> 'process_state' = 'finished'"
                                + " AND coalesce((n.attributes ->> 'sealed')::boolean, false)"
                                + " AND coalesce(n.extras ->> '_cairn_valid_cache', 'true') <> 'false' ORDER BY n.id")) {
            s.setString(1, target.graph().hashOf(launch));
            s.setString(2, launch.nodeType());
            s.setString(3, launch.processType());
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    uuids.add(r.getString(1));
                }
            }
        }
        return uuids;
    }

    static final String NODES = "SELECT n.uuid, n.node_type, n.process_type, n.label, n.description, n.ctime, n.mtime,"
            + " n.attributes, n.extras, n.repository_metadata, n.hash, c.uuid AS computer"
            + " FROM node n LEFT JOIN computer c ON c.id = n.computer_id ORDER BY n.uuid";
    static final String LINKS = "SELECT i.uuid, o.uuid, l.type, l.label FROM link l JOIN node i ON i.id = l.input_id"
            + " JOIN node o ON o.id = l.output_id ORDER BY 1, 2, 3, 4";
    static final String GROUP = "SELECT g.uuid, g.label, g.type_string, g.extras, array_agg(n.uuid ORDER BY n.uuid)"
            + " FROM node_group g JOIN group_member m ON m.group_id = g.id JOIN node n ON n.id = m.node_id"
            + " WHERE g.type_string = 'core' GROUP BY g.id ORDER BY g.uuid";
    static final String COMMENTS = "SELECT c.uuid, n.uuid, c.content, c.ctime FROM comment c JOIN node n ON"
            + " n.id = c.node_id ORDER BY c.uuid";
    static final String LOGS = "SELECT l.uuid, n.uuid, l.level_name, l.message, l.time, l.metadata FROM log l JOIN node"
            + " n ON n.id = l.node_id ORDER BY l.uuid";

    static List<Map<String, String>> rows(Installation at, String sql) throws SQLException {
        List<Map<String, String>> rows = new ArrayList<>();
        try (Connection c = at.database().connection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                Map<String, String> row = new TreeMap<>();
                for (int i = 1; i <= r.getMetaData().getColumnCount(); i++) {
                    row.put(i + ":" + r.getMetaData().getColumnLabel(i), r.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    static String single(Installation at, String sql) throws SQLException {
        try (Connection c = at.database().connection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            return r.next() ? r.getString(1) : null;
        }
    }
}
