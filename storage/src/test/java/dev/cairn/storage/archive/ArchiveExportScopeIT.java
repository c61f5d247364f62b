package dev.cairn.storage.archive;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.storage.archive.ArchiveRoundTripIT.Installation;
import dev.cairn.storage.graph.GraphFixtures;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.computers.AuthInfo;
import dev.cairn.storage.graph.computers.AuthInfoStore;
import dev.cairn.storage.graph.traversal.TraversalRules;
import dev.cairn.storage.objects.ObjectKey;
import dev.cairn.storage.testing.TestDatabase;

/**
 * An export holds what its request asks for: from a code, the code and the computer it is installed on;
 * from a computer, the closure under the EXPORT rules of the nodes run on it, and that computer;
 * authinfos only when asked; comments and logs unless left out. What an archive leaves out, its import
 * does not add.
 */
class ArchiveExportScopeIT {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @RegisterExtension
    static final TestDatabase sourceDb = new TestDatabase();

    @RegisterExtension
    static final TestDatabase targetDb = new TestDatabase();

    @TempDir
    static Path tmp;

    static Installation source;
    static Installation target;
    static ArchiveGraph graph;
    static String computer;

    @BeforeAll
    static void open() throws Exception {
        source = Installation.open(sourceDb, tmp.resolve("source-objects"), "source@example.com");
        target = Installation.open(targetDb, tmp.resolve("target-objects"), "target@example.com");
        graph = new ArchiveGraph(source.graph(), source.database(), tmp, "cluster");
        computer = ArchiveRoundTripIT.single(source, "SELECT uuid FROM computer WHERE id = " + graph.computer);
    }

    @AfterAll
    static void close() throws Exception {
        source.close();
        target.close();
    }

    @Test
    void anExportFromACodeHoldsTheCodeAndItsComputer() throws Exception {
        Contents archive = export(ExportRequest.of(new long[] {graph.code.id()}, new long[0], new long[0]), "code");
        assertEquals(
                uuids(graph.code),
                archive.uuids(ArchivePart.NODES),
                "the code alone: input_calc_forward is off, so the job that used it stays behind");
        assertEquals(Set.of(computer), archive.uuids(ArchivePart.COMPUTERS), "the computer the code is on");
        assertEquals(
                computer, archive.rows(ArchivePart.NODES).get(0).get("computer").asString());
        assertEquals(List.of(), archive.rows(ArchivePart.LINKS));
        assertEquals(Set.of("source@example.com"), archive.emails());
        assertEquals(0, archive.objects().size());
    }

    @Test
    void anExportFromAComputerHoldsTheClosureOfTheNodesRunOnIt() throws Exception {
        ExportRequest fromComputer = ExportRequest.of(new long[0], new long[0], new long[] {graph.computer});
        Contents all = export(fromComputer, "computer");
        // the seeds are the nodes run on the computer, the code and the job; call_calc_backward brings the
        // work chain that called the job, and with it the chain's whole closure: all but the Int apart
        assertEquals(
                uuids(graph.nodes.stream().filter(n -> n != graph.apart).toArray(Node[]::new)),
                all.uuids(ArchivePart.NODES));
        assertEquals(Set.of(computer), all.uuids(ArchivePart.COMPUTERS));
        assertEquals(4, all.objects().size(), "the file, the array, the folder's two files");

        Contents job =
                export(fromComputer.withRules(TraversalRules.EXPORT.with("call_calc_backward", false)), "computer-job");
        assertEquals(
                uuids(graph.code, graph.calcJob, graph.parameters, graph.retrieved),
                job.uuids(ArchivePart.NODES),
                "without call_calc_backward: the job, its inputs and its output");
        assertEquals(
                Set.of(
                        graph.parameters.uuid() + " " + graph.calcJob.uuid() + " input_calc parameters",
                        graph.code.uuid() + " " + graph.calcJob.uuid() + " input_calc code",
                        graph.calcJob.uuid() + " " + graph.retrieved.uuid() + " create retrieved"),
                job.links());
        assertEquals(Set.of(computer), job.uuids(ArchivePart.COMPUTERS));
        assertEquals(2, job.objects().size(), "the retrieved folder's two files");
    }

    @Test
    void authinfosStayBehindUnlessAskedForAndThenArrive() throws Exception {
        new AuthInfoStore(source.database())
                .create(
                        source.graph().userId(),
                        graph.computer,
                        Map.of("username", "ada", "key_filename", "~/.ssh/id_ed25519"));
        ExportRequest code = ExportRequest.of(new long[] {graph.code.id()}, new long[0], new long[0]);

        Contents plain = export(code, "code-plain");
        assertEquals(0, plain.header().count(ArchivePart.AUTHINFOS), "left out by default");
        assertEquals(List.of(), plain.rows(ArchivePart.AUTHINFOS));
        long before = GraphFixtures.count(target.database(), "authinfo");
        assertEquals(
                0, target.importFile(plain.file(), ImportOptions.defaults()).added(ArchivePart.AUTHINFOS));
        assertEquals(before, GraphFixtures.count(target.database(), "authinfo"));

        Contents asked = export(code.withAuthinfos(true), "code-authinfos");
        assertEquals(1, asked.rows(ArchivePart.AUTHINFOS).size());
        JsonNode row = asked.rows(ArchivePart.AUTHINFOS).get(0);
        assertEquals("source@example.com", row.get("user").asString());
        assertEquals(computer, row.get("computer").asString());
        ImportResult result = target.importFile(asked.file(), ImportOptions.defaults());
        assertEquals(1, result.added(ArchivePart.AUTHINFOS));
        AuthInfo arrived = new AuthInfoStore(target.database())
                .get(
                        Long.parseLong(ArchiveRoundTripIT.single(
                                target, "SELECT id FROM app_user WHERE email = 'source@example.com'")),
                        Long.parseLong(ArchiveRoundTripIT.single(
                                target, "SELECT id FROM computer WHERE uuid = '" + computer + "'")));
        assertEquals(Map.of("username", "ada", "key_filename", "~/.ssh/id_ed25519"), arrived.authParams());
        assertTrue(arrived.enabled());
    }

    @Test
    void commentsAndLogsLeftOutAreNotImportedAndTravelByDefault() throws Exception {
        Contents bare = export(ExportRequest.ofEverything().withComments(false).withLogs(false), "bare");
        assertEquals(List.of(), bare.rows(ArchivePart.COMMENTS));
        assertEquals(List.of(), bare.rows(ArchivePart.LOGS));
        assertEquals(graph.nodes.size(), bare.rows(ArchivePart.NODES).size(), "the nodes travel still");
        long comments = GraphFixtures.count(target.database(), "comment");
        long logs = GraphFixtures.count(target.database(), "log");
        ImportResult without = target.importFile(bare.file(), ImportOptions.defaults());
        assertEquals(0, without.added(ArchivePart.COMMENTS));
        assertEquals(0, without.added(ArchivePart.LOGS));
        assertEquals(comments, GraphFixtures.count(target.database(), "comment"), "no comment imported");
        assertEquals(logs, GraphFixtures.count(target.database(), "log"), "no log imported");

        Contents full = export(ExportRequest.ofEverything(), "full");
        assertEquals(1, full.rows(ArchivePart.COMMENTS).size());
        assertEquals(1, full.rows(ArchivePart.LOGS).size());
        ImportResult with = target.importFile(full.file(), ImportOptions.defaults());
        assertEquals(1, with.added(ArchivePart.COMMENTS), "to the nodes here since the first import");
        assertEquals(1, with.added(ArchivePart.LOGS));
        assertEquals(
                "made by hand",
                ArchiveRoundTripIT.single(
                        target,
                        "SELECT c.content FROM comment c JOIN node n ON n.id = c.node_id WHERE n.uuid = '"
                                + graph.calcFunction.uuid() + "'"));
        assertEquals(
                "step 1 done",
                ArchiveRoundTripIT.single(
                        target,
                        "SELECT l.message FROM log l JOIN node n ON n.id = l.node_id WHERE n.uuid = '"
                                + graph.workChain.uuid() + "'"));
    }

    private static Contents export(ExportRequest request, String name) throws Exception {
        return Contents.read(source.exportFile(request, tmp.resolve(name + ".cairn")));
    }

    private static Set<String> uuids(Node... nodes) {
        Set<String> uuids = new TreeSet<>();
        for (Node n : nodes) {
            uuids.add(n.uuid().toString());
        }
        return uuids;
    }

    /** What a Cairn archive holds, read whole: for small archives only. */
    record Contents(Path file, ArchiveHeader header, Map<ArchivePart, List<JsonNode>> parts, List<ObjectKey> objects) {

        static Contents read(Path file) throws Exception {
            Map<ArchivePart, List<JsonNode>> parts = new EnumMap<>(ArchivePart.class);
            List<ObjectKey> objects = new ArrayList<>();
            try (CairnArchiveReader reader = CairnArchiveReader.open(file)) {
                reader.read(new ArchiveReader.Visitor() {
                    @Override
                    public void rows(ArchivePart part, InputStream ndjson) throws IOException {
                        List<JsonNode> rows = new ArrayList<>();
                        new String(ndjson.readAllBytes(), UTF_8).lines().forEach(l -> rows.add(JSON.readTree(l)));
                        parts.put(part, rows);
                    }

                    @Override
                    public void object(ObjectKey key, long size, InputStream content) {
                        objects.add(key);
                    }
                });
                return new Contents(file, reader.header(), parts, objects);
            }
        }

        List<JsonNode> rows(ArchivePart part) {
            return parts.get(part);
        }

        Set<String> uuids(ArchivePart part) {
            return rows(part).stream()
                    .map(r -> r.get("uuid").asString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }

        Set<String> emails() {
            return rows(ArchivePart.USERS).stream()
                    .map(r -> r.get("email").asString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }

        /** Each link as "input output type label". */
        Set<String> links() {
            return rows(ArchivePart.LINKS).stream()
                    .map(r -> r.get("input").asString() + " " + r.get("output").asString() + " "
                            + r.get("type").asString() + " " + r.get("label").asString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }
}
