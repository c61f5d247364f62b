package dev.cairn.storage.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.query.Filter;
import dev.cairn.storage.query.GraphQuery;
import dev.cairn.storage.query.QueryBuilder;
import dev.cairn.storage.testing.TestDatabase;

class GraphStoreIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    static Path tmp;

    static Database database;
    static Container container;
    static GraphStore graph;

    @BeforeAll
    static void open() throws Exception {
        database = Database.open(DatabaseConfig.of(db.jdbcUrl()));
        container = Container.init(tmp.resolve("objects"), ContainerConfig.defaults());
        graph = new GraphStore(database, container, GraphFixtures.user(database, "store@example.com"));
    }

    @AfterAll
    static void close() throws Exception {
        container.close();
        database.close();
    }

    @Test
    void aStoredNodeReadsBackTypedAndEqual() {
        IntData five = graph.store(new IntData(5));
        assertTrue(five.isStored());
        assertTrue(five.hash().matches("[0-9a-f]{64}"));
        IntData read = graph.load(five.id(), IntData.class);
        assertEquals(5, read.value());
        assertEquals(five.uuid(), read.uuid());
        assertEquals(five.hash(), read.hash());
        assertEquals(five.ctime().toInstant(), read.ctime().toInstant());
        assertEquals(five.id(), graph.load(five.uuid()).id());
    }

    @Test
    void everyCoreTypeRoundTrips() throws Exception {
        Path folder = Files.createDirectories(tmp.resolve("tree/sub"));
        Files.writeString(folder.resolve("a.txt"), "alpha");
        Files.createDirectories(tmp.resolve("tree/empty"));
        long computer = GraphFixtures.computer(database, "roundtrip");
        StructureData structure = new StructureData(
                new double[][] {{4.0, 0, 0}, {0, 4.0, 0}, {0, 0, 4.0}},
                new boolean[] {true, true, false},
                List.of(StructureData.Kind.of("Ba", 137.327), StructureData.Kind.of("O", 15.999)),
                List.of(
                        new StructureData.Site("Ba", 0, 0, 0),
                        new StructureData.Site("O", 2.0, 2.0, 0.1234567890123456)));
        List<Node> nodes = List.of(
                new FloatData(0.1 + 0.2),
                new StrData("tab\tquote\"back\\slash\nline"),
                new BoolData(true),
                new DictData(Map.of("a", 1, "nested", Map.of("b", List.of(1.5, "x")))),
                new ListData(List.of(1, 2.5, "three", List.of())),
                structure,
                new SinglefileData("in.txt", "hello".getBytes(StandardCharsets.UTF_8)),
                FolderData.of(tmp.resolve("tree")),
                new RemoteData(computer, "/scratch/run1"),
                new InstalledCode(computer, "/usr/bin/bash"),
                new ArrayData().set("forces", NpyArray.of(new double[] {1, 2, 3, 4, 5, 6}, 2, 3)));
        graph.storeAll(nodes);

        assertEquals(0.3, graph.load(nodes.get(0).id(), FloatData.class).value());
        assertEquals(
                "tab\tquote\"back\\slash\nline",
                graph.load(nodes.get(1).id(), StrData.class).value());
        assertTrue(graph.load(nodes.get(2).id(), BoolData.class).value());
        assertEquals(
                Map.of("a", 1L, "nested", Map.of("b", List.of(1.5, "x"))),
                graph.load(nodes.get(3).id(), DictData.class).asMap());
        assertEquals(
                List.of(1L, 2.5, "three", List.of()),
                graph.load(nodes.get(4).id(), ListData.class).values());
        StructureData s = graph.load(nodes.get(5).id(), StructureData.class);
        assertEquals(structure.sites(), s.sites());
        assertEquals(0.12345678901235, s.sites().get(1).z(), "rounded to 14 significant digits");
        assertArrayEquals(new boolean[] {true, true, false}, s.pbc());
        assertEquals(
                "hello", new String(graph.readFile(graph.load(nodes.get(6).id()), "in.txt"), StandardCharsets.UTF_8));
        assertEquals(
                "in.txt", graph.load(nodes.get(6).id(), SinglefileData.class).filename());
        Node folderNode = graph.load(nodes.get(7).id());
        assertEquals("alpha", new String(graph.readFile(folderNode, "sub/a.txt"), StandardCharsets.UTF_8));
        assertEquals(List.of("empty", "sub"), folderNode.files().list(""));
        assertEquals(
                "/scratch/run1", graph.load(nodes.get(8).id(), RemoteData.class).remotePath());
        assertEquals(computer, graph.load(nodes.get(9).id()).computerId());
        ArrayData array = graph.load(nodes.get(10).id(), ArrayData.class);
        assertArrayEquals(new int[] {2, 3}, array.shape("forces"));
        assertArrayEquals(
                new double[] {1, 2, 3, 4, 5, 6},
                graph.readArray(array, "forces").doubles());
        for (Node n : nodes) {
            assertEquals(n.hash(), graph.load(n.id()).hash());
        }
    }

    @Test
    void aCalculationLinksItsInputsAndOutputs() {
        IntData x = graph.store(new IntData(1));
        IntData y = graph.store(new IntData(2));
        CalcFunctionNode add = new CalcFunctionNode("cairn.add");
        add.addIncoming(x, LinkType.INPUT_CALC, "x");
        add.addIncoming(y, LinkType.INPUT_CALC, "y");
        graph.store(add);
        IntData sum = new IntData(3);
        sum.addIncoming(add, LinkType.CREATE, "result");
        graph.store(sum);

        assertEquals(
                List.of(
                        new LinkTriple(x.id(), IntData.TYPE, LinkType.INPUT_CALC, "x"),
                        new LinkTriple(y.id(), IntData.TYPE, LinkType.INPUT_CALC, "y")),
                graph.incoming(add));
        assertEquals(List.of(new LinkTriple(sum.id(), IntData.TYPE, LinkType.CREATE, "result")), graph.outgoing(add));
        assertEquals(
                List.of(new LinkTriple(add.id(), CalcFunctionNode.TYPE, LinkType.CREATE, "result")),
                graph.incoming(sum));
    }

    @Test
    void aProcessHashDependsOnItsInputsByLabel() {
        IntData one = graph.store(new IntData(1));
        IntData two = graph.store(new IntData(2));
        CalcFunctionNode a = new CalcFunctionNode("cairn.add");
        a.addIncoming(one, LinkType.INPUT_CALC, "x");
        a.addIncoming(two, LinkType.INPUT_CALC, "y");
        CalcFunctionNode b = new CalcFunctionNode("cairn.add");
        b.addIncoming(graph.store(new IntData(1)), LinkType.INPUT_CALC, "x");
        b.addIncoming(graph.store(new IntData(2)), LinkType.INPUT_CALC, "y");
        CalcFunctionNode swapped = new CalcFunctionNode("cairn.add");
        swapped.addIncoming(one, LinkType.INPUT_CALC, "y");
        swapped.addIncoming(two, LinkType.INPUT_CALC, "x");
        graph.storeAll(List.of(a, b, swapped));
        assertEquals(a.hash(), b.hash(), "equal inputs under equal labels");
        assertNotEquals(a.hash(), swapped.hash());
    }

    @Test
    void aBatchStoresNodesLinkedAmongThemselvesInOneGo() {
        IntData root = graph.store(new IntData(0));
        List<Node> batch = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            CalcFunctionNode calc = new CalcFunctionNode("cairn.split");
            calc.addIncoming(root, LinkType.INPUT_CALC, "x" + i);
            IntData out = new IntData(i);
            out.addIncoming(calc, LinkType.CREATE, "out");
            batch.add(out); // the output first: the store orders sources before targets
            batch.add(calc);
        }
        graph.storeAll(batch);
        assertEquals(1000, batch.stream().filter(Node::isStored).count());
        assertEquals(500, graph.outgoing(root).size());
        Node out = batch.getFirst();
        assertEquals(LinkType.CREATE, graph.incoming(out).getFirst().type());
    }

    @Test
    void aBatchThatBreaksARuleLeavesNothingBehind() throws SQLException {
        IntData x = graph.store(new IntData(10));
        CalcFunctionNode calc = new CalcFunctionNode("cairn.f");
        calc.addIncoming(x, LinkType.INPUT_CALC, "x");
        graph.store(calc);
        IntData first = new IntData(1);
        first.addIncoming(calc, LinkType.CREATE, "out");
        graph.store(first);

        long before = GraphFixtures.count(database, "node");
        List<Node> batch = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            batch.add(new IntData(i));
        }
        IntData clash = new IntData(2);
        clash.addIncoming(calc, LinkType.CREATE, "out"); // the calc has an output 'out' already
        batch.add(clash);
        LinkRuleException e = assertThrows(LinkRuleException.class, () -> graph.storeAll(batch));
        assertTrue(e.getMessage().contains("CREATE links have distinct labels"), e.getMessage());
        assertTrue(e.getMessage().contains("out"), e.getMessage());
        assertEquals(before, GraphFixtures.count(database, "node"));
        assertFalse(batch.getFirst().isStored());
    }

    @Test
    void theDatabaseRefusesLinksThatBreakTheRules() throws SQLException {
        IntData x = graph.store(new IntData(7));
        CalcFunctionNode c1 = new CalcFunctionNode("cairn.f");
        c1.addIncoming(x, LinkType.INPUT_CALC, "x");
        CalcFunctionNode c2 = new CalcFunctionNode("cairn.f");
        c2.addIncoming(x, LinkType.INPUT_CALC, "x");
        graph.storeAll(List.of(c1, c2));
        IntData out = new IntData(8);
        out.addIncoming(c1, LinkType.CREATE, "result");
        graph.store(out);
        // straight SQL, past the checks in Java
        RuntimeException second = sqlFails("INSERT INTO link (input_id, output_id, type, label) VALUES (" + c2.id()
                + ", " + out.id() + ", 'create', 'result')");
        assertTrue(second.getMessage().contains("one creator"), second.getMessage());
        IntData other = graph.store(new IntData(9));
        RuntimeException kinds = sqlFails("INSERT INTO link (input_id, output_id, type, label) VALUES (" + x.id() + ", "
                + other.id() + ", 'create', 'r')");
        assertTrue(
                kinds.getMessage().contains("CREATE cannot join data.core.int.Int. to data.core.int.Int."),
                kinds.getMessage());
        RuntimeException label = sqlFails("INSERT INTO link (input_id, output_id, type, label) VALUES (" + x.id() + ", "
                + c1.id() + ", 'input_calc', '_bad')");
        assertTrue(label.getMessage().contains("link_label_check"), label.getMessage());
    }

    /**
     * The guard has a plan of its own for statements of many links (a bulk store, an import): it refuses
     * a bad link among thousands as it does among a few, and takes thousands of good ones.
     */
    @Test
    void theDatabaseRefusesABadLinkAmongThousandsAndTakesThousandsOfGoodOnes() throws SQLException {
        List<IntData> inputs = new ArrayList<>();
        for (int i = 0; i < 1_500; i++) {
            inputs.add(new IntData(i));
        }
        graph.storeAll(inputs);
        CalcFunctionNode many = graph.store(new CalcFunctionNode("cairn.many"));
        CalcFunctionNode more = graph.store(new CalcFunctionNode("cairn.many"));
        String manyLinks = "SELECT id, %d, 'input_calc', 'x_' || id FROM node WHERE id BETWEEN %d AND %d";
        long first = inputs.getFirst().id();
        long last = inputs.getLast().id();
        RuntimeException bad = sqlFails("INSERT INTO link (input_id, output_id, type, label) "
                + manyLinks.formatted(many.id(), first, last) + " UNION ALL SELECT " + first + ", " + last
                + ", 'create', 'r'");
        assertTrue(
                bad.getMessage().contains("CREATE cannot join data.core.int.Int. to data.core.int.Int."),
                bad.getMessage());
        long links = GraphFixtures.count(database, "link");
        try (Connection c = database.connection();
                Statement s = c.createStatement()) {
            assertEquals(
                    1_500,
                    s.executeUpdate("INSERT INTO link (input_id, output_id, type, label) "
                            + manyLinks.formatted(more.id(), first, last)));
        }
        assertEquals(links + 1_500, GraphFixtures.count(database, "link"));
    }

    private static RuntimeException sqlFails(String sql) {
        try (Connection c = database.connection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            return SqlErrors.translate(e, "test");
        }
        throw new AssertionError("accepted: " + sql);
    }

    @Test
    void rulesAreCheckedWhenLinksAreAdded() {
        IntData x = graph.store(new IntData(1));
        CalcFunctionNode calc = new CalcFunctionNode("cairn.f");
        calc.addIncoming(x, LinkType.INPUT_CALC, "x");
        LinkRuleException duplicate = assertThrows(
                LinkRuleException.class, () -> calc.addIncoming(graph.store(new IntData(2)), LinkType.INPUT_CALC, "x"));
        assertTrue(duplicate.getMessage().contains("labelled 'x'"), duplicate.getMessage());
        LinkRuleException kinds =
                assertThrows(LinkRuleException.class, () -> calc.addIncoming(x, LinkType.INPUT_WORK, "w"));
        assertTrue(kinds.getMessage().contains("INPUT_WORK links a data node to a workflow node"), kinds.getMessage());
        LinkRuleException label =
                assertThrows(LinkRuleException.class, () -> calc.addIncoming(x, LinkType.INPUT_CALC, "bad label"));
        assertTrue(label.getMessage().contains("'bad label' is not valid"), label.getMessage());
        IntData out = new IntData(3);
        out.addIncoming(calc, LinkType.CREATE, "a");
        LinkRuleException creator = assertThrows(
                LinkRuleException.class, () -> out.addIncoming(new CalcFunctionNode("cairn.g"), LinkType.CREATE, "b"));
        assertTrue(creator.getMessage().contains("already has a CREATE link"), creator.getMessage());
        IntData lonely = new IntData(4);
        LinkRuleException self =
                assertThrows(LinkRuleException.class, () -> lonely.addIncoming(lonely, LinkType.CREATE, "self"));
        assertTrue(self.getMessage().contains("cannot link to itself"), self.getMessage());
        assertThrows(ModificationNotAllowedException.class, () -> x.addIncoming(calc, LinkType.CREATE, "late"));
    }

    @Test
    void aCycleInABatchIsRefusedNamingItsNodes() {
        CalcFunctionNode calc = new CalcFunctionNode("cairn.loop");
        IntData data = new IntData(1);
        calc.addIncoming(data, LinkType.INPUT_CALC, "x");
        data.addIncoming(calc, LinkType.CREATE, "y");
        ProvenanceCycleException e =
                assertThrows(ProvenanceCycleException.class, () -> graph.storeAll(List.of(calc, data)));
        assertTrue(
                e.getMessage().contains("-CREATE 'y'->") && e.getMessage().contains("-INPUT_CALC 'x'->"),
                e.getMessage());
        assertFalse(calc.isStored());
    }

    @Test
    void aStoredNodeIsFrozenButItsLabelDescriptionAndExtrasChange() {
        DictData dict = new DictData(Map.of("a", 1));
        dict.setExtras(Map.of("tag", "x"));
        graph.store(dict);
        assertThrows(ModificationNotAllowedException.class, () -> dict.setLabel("new"));
        assertThrows(UnsupportedOperationException.class, () -> dict.asMap().put("b", 2));
        graph.setLabel(dict, "relabelled");
        graph.setDescription(dict, "described");
        graph.setExtra(dict, "score", 1.5);
        graph.deleteExtra(dict, "tag");
        Node read = graph.load(dict.id());
        assertEquals("relabelled", read.label());
        assertEquals("described", read.description());
        assertEquals(Map.of("score", 1.5), read.extras());
        assertEquals(dict.extras(), read.extras());
        assertTrue(read.mtime().isAfter(read.ctime()) || read.mtime().isEqual(read.ctime()));
        @SuppressWarnings("unchecked")
        Map<String, Object> nested = (Map<String, Object>) ((DictData) read).asMap();
        assertThrows(UnsupportedOperationException.class, () -> nested.put("x", 1));
    }

    @Test
    void anUpdateChangesLabelDescriptionAndExtrasInOneStatementOrNothing() {
        DictData dict = new DictData(Map.of("a", 1));
        dict.setExtras(Map.of("keep", "k", "drop", "d"));
        graph.store(dict);
        graph.update(dict.id(), "relabelled", null, Map.of("score", 2.5, "keep", "k2"), List.of("drop", "absent"));
        Node read = graph.load(dict.id());
        assertEquals("relabelled", read.label());
        assertEquals("", read.description());
        assertEquals(Map.of("keep", "k2", "score", 2.5), read.extras());
        assertEquals(Map.of("a", 1L), read.attributes());
        // a bad extra refuses the whole change, the label included
        assertThrows(
                InvalidInputException.class, () -> graph.update(dict.id(), "again", "d", Map.of("a.b", 1), List.of()));
        assertEquals("relabelled", graph.load(dict.id()).label());
        assertThrows(NotFoundException.class, () -> graph.update(-1, "x", null, Map.of(), List.of()));
    }

    @Test
    void aFileStreamedInGoesToTheObjectStoreWhenTheNodeIsStored() throws Exception {
        byte[] content = "streamed".getBytes(StandardCharsets.UTF_8);
        SinglefileData file;
        try (var in = new ByteArrayInputStream(content)) {
            file = graph.store(new SinglefileData("s.txt", in));
        }
        var key = file.files().key("s.txt").orElseThrow();
        assertEquals(content.length, graph.objectStore().meta(key).size());
        assertArrayEquals(content, graph.readFile(file, "s.txt"));
        @SuppressWarnings("unchecked")
        Map<String, Object> metadata = (Map<String, Object>) GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .node(
                                        "n",
                                        v -> v.where(Filter.field("id").eq(file.id()))
                                                .project("repository_metadata"))
                                .build())
                .one()
                .get(0);
        assertEquals(Map.of("s.txt", key), NodeFiles.fromMetadata(metadata).keys());
    }

    @Test
    void theDatabaseGuardsStoredAttributesToo() {
        IntData x = graph.store(new IntData(1));
        RuntimeException e = sqlFails("UPDATE node SET attributes = '{\"value\": 2}' WHERE id = " + x.id());
        assertInstanceOf(ModificationNotAllowedException.class, e);
        assertTrue(e.getMessage().contains("attributes of a data node cannot change"), e.getMessage());
        assertInstanceOf(
                ModificationNotAllowedException.class,
                sqlFails("UPDATE node SET node_type = 'data.core.str.Str.' WHERE id = " + x.id()));
        assertEquals(1, graph.load(x.id(), IntData.class).value());
    }

    @Test
    void aProcessChangesItsStateUntilSealedAndNothingAfter() {
        WorkChainNode wc = new WorkChainNode("cairn.demo");
        wc.setProcessState("created");
        wc.setStaticAttribute("version", Map.of("cairn", "0.1"));
        graph.store(wc);
        String hash = wc.hash();
        wc.setProcessState("running");
        graph.saveState(wc);
        assertEquals("running", graph.load(wc.id(), WorkChainNode.class).processState());
        assertThrows(ModificationNotAllowedException.class, () -> wc.setStaticAttribute("version", "2"));

        IntData made = graph.store(new IntData(4));
        graph.addReturnLink(wc, made, "result");
        wc.setProcessState("finished");
        wc.setExitStatus(0);
        graph.seal(wc);
        WorkChainNode read = graph.load(wc.id(), WorkChainNode.class);
        assertTrue(read.isSealed());
        assertEquals(0, read.exitStatus());
        assertEquals(hash, read.hash(), "state does not count in the hash");
        assertThrows(ModificationNotAllowedException.class, () -> wc.setProcessState("killed"));
        LinkRuleException late = assertThrows(LinkRuleException.class, () -> graph.addReturnLink(wc, made, "again"));
        assertTrue(late.getMessage().contains("sealed"), late.getMessage());
        RuntimeException sql = sqlFails(
                "UPDATE node SET attributes = attributes || '{\"process_state\": \"x\"}' WHERE id = " + wc.id());
        assertTrue(sql.getMessage().contains("is sealed"), sql.getMessage());
        RuntimeException link = sqlFails("INSERT INTO link (input_id, output_id, type, label) VALUES (" + wc.id() + ", "
                + made.id() + ", 'return', 'r2')");
        assertTrue(link.getMessage().contains("sealed node takes no new links"), link.getMessage());
    }

    @Test
    void aProcessStoredSealedTakesItsLinksInTheSameBatchOnly() {
        IntData x = graph.store(new IntData(1));
        CalcFunctionNode calc = new CalcFunctionNode("cairn.imported");
        calc.addIncoming(x, LinkType.INPUT_CALC, "x");
        calc.setProcessState("finished");
        calc.sealBeforeStore();
        IntData out = new IntData(2);
        out.addIncoming(calc, LinkType.CREATE, "out");
        graph.storeAll(List.of(calc, out));
        assertEquals(1, graph.outgoing(calc).size());
        IntData late = new IntData(3);
        assertThrows(LinkRuleException.class, () -> late.addIncoming(calc, LinkType.CREATE, "again"));
        IntData stored = graph.store(new IntData(4));
        RuntimeException e = sqlFails("INSERT INTO link (input_id, output_id, type, label) VALUES (" + calc.id() + ", "
                + stored.id() + ", 'create', 'late')");
        assertTrue(e.getMessage().contains("sealed node takes no new links"), e.getMessage());
    }

    @Test
    void aPluginDataTypeFoundThroughTheServiceLoaderStoresAndLoadsTyped() {
        assertTrue(NodeTypes.isKnown(PluginDataType.TYPE));
        PluginDataType mesh = graph.store(new PluginDataType(4, 4, 2));
        PluginDataType read = graph.load(mesh.id(), PluginDataType.class);
        assertEquals(List.of(4L, 4L, 2L), read.mesh());
        assertEquals(mesh.hash(), read.hash());
    }

    @Test
    void aBatchWithComputersNeedsOneConnectionOnly() throws Exception {
        try (Database two = Database.open(DatabaseConfig.of(db.jdbcUrl()).withPoolSize(2));
                Connection held = two.connection()) { // leaves the store one connection
            GraphStore small = new GraphStore(
                    two, null, graph.load(graph.store(new IntData(0)).id()).userId());
            long computer = GraphFixtures.computer(database, "one-connection");
            List<Node> batch =
                    List.of(new RemoteData(computer, "/scratch/a"), new InstalledCode(computer, "/bin/true"));
            small.storeAll(batch);
            assertTrue(batch.stream().allMatch(Node::isStored));
            NotFoundException missing = assertThrows(
                    NotFoundException.class, () -> small.storeAll(List.of(new RemoteData(Long.MAX_VALUE, "/nowhere"))));
            assertTrue(missing.getMessage().contains("no computer with id"), missing.getMessage());
        }
        InvalidInputException one = assertThrows(
                InvalidInputException.class,
                () -> DatabaseConfig.of(db.jdbcUrl()).withPoolSize(1));
        assertTrue(one.getMessage().contains("at least 2"), one.getMessage());
    }

    /** A data type no plugin registered. */
    static final class Unregistered extends Data {
        Unregistered() {
            super("data.test.unregistered.Unregistered.");
        }
    }

    static final class Malformed extends Data {
        Malformed() {
            super("data.bad type.");
        }
    }

    @Test
    void badValuesAndUnknownTypesAreRefusedClearly() {
        InvalidValueException dot = assertThrows(InvalidValueException.class, () -> new DictData(Map.of("a.b", 1)));
        assertTrue(dot.getMessage().contains("'a.b' contains '.'"), dot.getMessage());
        InvalidValueException nan =
                assertThrows(InvalidValueException.class, () -> new DictData(Map.of("x", List.of(1.0, Double.NaN))));
        assertTrue(nan.getMessage().contains("attributes.x[1]: NaN"), nan.getMessage());
        assertThrows(InvalidValueException.class, () -> new FloatData(Double.POSITIVE_INFINITY));
        InvalidValueException type =
                assertThrows(InvalidValueException.class, () -> new DictData(Map.of("when", new Date())));
        assertTrue(type.getMessage().contains("java.util.Date"), type.getMessage());
        UnknownNodeTypeException unknown =
                assertThrows(UnknownNodeTypeException.class, () -> graph.store(new Unregistered()));
        assertTrue(
                unknown.getMessage().contains("data.test.unregistered.Unregistered.")
                        && unknown.getMessage().contains(IntData.TYPE),
                unknown.getMessage());
        UnknownNodeTypeException malformed = assertThrows(UnknownNodeTypeException.class, Malformed::new);
        assertTrue(malformed.getMessage().contains("'data.bad type.' is malformed"), malformed.getMessage());
        assertThrows(NodeNotFoundException.class, () -> graph.load(Long.MAX_VALUE));
    }

    @Test
    void anUnstoredSourceMustBeStoredFirstOrInTheSameBatch() {
        IntData x = new IntData(1);
        CalcFunctionNode calc = new CalcFunctionNode("cairn.f");
        calc.addIncoming(x, LinkType.INPUT_CALC, "x");
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> graph.store(calc));
        assertTrue(e.getMessage().contains("is not stored; store it first"), e.getMessage());
        graph.storeAll(List.of(calc, x));
        assertTrue(calc.isStored() && x.isStored());
    }
}
