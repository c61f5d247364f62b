package dev.cairn.storage.archive.aiida;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
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
import tools.jackson.databind.JsonNode;

import dev.cairn.storage.archive.ArchiveExport;
import dev.cairn.storage.archive.ArchiveHeader;
import dev.cairn.storage.archive.ArchiveImport;
import dev.cairn.storage.archive.ArchivePart;
import dev.cairn.storage.archive.ArchiveProgress;
import dev.cairn.storage.archive.ExportRequest;
import dev.cairn.storage.archive.ImportOptions;
import dev.cairn.storage.archive.ImportResult;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.GraphFixtures;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.testing.TestDatabase;

/**
 * AiiDA and Cairn exchange provenance through AiiDA's archive: an archive aiida-core 2.9.4 wrote imports
 * into Cairn whole (every node with its attributes, extras and files, every link, the group with its
 * extras, comments and logs), a second import adds nothing, and the imported calculations get Cairn's
 * hashes; Cairn's export of that graph, written as {@code .aiida}, imports into aiida-core, whose
 * {@code verdi archive info} reports the counts Cairn exported.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AiidaInteropIT {

    @RegisterExtension
    static final RealAiidaArchive aiida = new RealAiidaArchive();

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
        graph = new GraphStore(database, container, GraphFixtures.user(database, "cairn@example.com"));
    }

    @AfterAll
    static void close() throws Exception {
        container.close();
        database.close();
    }

    private static ImportResult importAiidaArchive() throws Exception {
        try (AiidaArchiveReader reader = AiidaArchiveReader.open(aiida.archive())) {
            return new ArchiveImport(database, container, graph.userId())
                    .importFrom(reader, ImportOptions.defaults(), ArchiveProgress.NONE);
        }
    }

    private static long reported(String part) {
        return aiida.report().get("counts").get(part).asLong();
    }

    @Test
    @Order(1)
    void aiidasArchiveImportsWholeAndASecondImportAddsNothing() throws Exception {
        ImportResult first = importAiidaArchive();
        for (String part : List.of("nodes", "links", "groups", "group_members", "comments", "logs", "objects")) {
            assertEquals(reported(part), first.added(ArchivePart.ofKey(part)), part + " added");
        }
        assertEquals(1, first.added(ArchivePart.USERS), "AiiDA's user is new here");
        assertEquals(1, first.added(ArchivePart.COMPUTERS), "so is its localhost");
        assertTrue(first.group().startsWith("import-"), first.group());

        JsonNode rows = aiida.report().get("rows");
        Map<String, JsonNode> reportedNodes = new TreeMap<>();
        rows.get("nodes").forEach(n -> reportedNodes.put(n.get("uuid").asString(), n));
        Map<String, String> types = new TreeMap<>();
        Map<String, JsonNode> attributes = new TreeMap<>();
        Map<String, JsonNode> extras = new TreeMap<>();
        Map<String, JsonNode> files = new TreeMap<>();
        query("SELECT uuid, node_type, attributes, extras, repository_metadata FROM node", r -> {
            String uuid = r.getString(1);
            if (reportedNodes.containsKey(uuid)) {
                types.put(uuid, r.getString(2));
                attributes.put(uuid, json(r.getString(3)));
                extras.put(uuid, json(r.getString(4)));
                files.put(uuid, json(r.getString(5)));
            }
        });
        assertEquals(reportedNodes.keySet(), types.keySet(), "every node of the archive");
        reportedNodes.forEach((uuid, n) -> {
            assertEquals(n.get("node_type").asString(), types.get(uuid), uuid);
            assertEquals(n.get("attributes"), attributes.get(uuid), "attributes of " + uuid);
            assertEquals(n.get("extras"), extras.get(uuid), "extras of " + uuid);
            assertEquals(n.get("repository_metadata"), files.get(uuid), "files of " + uuid);
        });

        List<String> links = new ArrayList<>();
        query(
                "SELECT i.uuid, o.uuid, l.type, l.label FROM link l JOIN node i ON i.id = l.input_id"
                        + " JOIN node o ON o.id = l.output_id",
                r -> links.add(r.getString(1) + " " + r.getString(2) + " " + r.getString(3) + " " + r.getString(4)));
        List<String> expectedLinks = new ArrayList<>();
        rows.get("links")
                .forEach(l -> expectedLinks.add(l.get("input").asString() + " "
                        + l.get("output").asString() + " " + l.get("type").asString() + " "
                        + l.get("label").asString()));
        assertEquals(
                expectedLinks.stream().sorted().toList(),
                links.stream().sorted().toList());

        List<String> group = new ArrayList<>();
        query(
                "SELECT g.label, g.extras, count(m.node_id) FROM node_group g JOIN group_member m ON m.group_id = g.id"
                        + " WHERE g.uuid = '" + aiida.sample("group") + "' GROUP BY g.id",
                r -> group.add(r.getString(1) + " " + sorted(json(r.getString(2))) + " " + r.getLong(3)));
        assertEquals(List.of("cairn-fixture " + sorted(rows.get("groups").get(0).get("extras")) + " 6"), group);
        List<String> notes = new ArrayList<>();
        query("SELECT content FROM comment ORDER BY content", r -> notes.add(r.getString(1)));
        assertEquals(
                List.of("added by the fixture\nsecond line", "cubic cell; oxygen sites incomplete on purpose"), notes);
        List<String> logs = new ArrayList<>();
        query(
                "SELECT logger_name, level_name FROM log ORDER BY logger_name",
                r -> logs.add(r.getString(1) + " " + r.getString(2)));
        assertEquals(2, logs.size());
        assertTrue(logs.contains("cairn.fixture WARNING"), logs.toString());

        Node retrieved = graph.load(UUID.fromString(aiida.sample("retrieved")));
        assertEquals("42\n", new String(graph.readFile(retrieved, "aiida.out"), UTF_8));
        Node array = graph.load(UUID.fromString(aiida.sample("array")));
        byte[] npy = graph.readFile(array, "cells.npy");
        assertEquals("\u0093NUMPY", new String(npy, 0, 6, ISO_8859_1));

        // imported calculations are cache sources at once: each has the hash its class computes
        List<Long> calculations = new ArrayList<>();
        query(
                "SELECT id FROM node WHERE node_type LIKE 'process.calculation.%' AND hash IS NOT NULL",
                r -> calculations.add(r.getLong(1)));
        assertEquals(
                aiida.report()
                                .get("node_types")
                                .get("process.calculation.calcjob.CalcJobNode.")
                                .asLong()
                        + aiida.report()
                                .get("node_types")
                                .get("process.calculation.calcfunction.CalcFunctionNode.")
                                .asLong(),
                calculations.size(),
                "every calculation has a hash");
        for (long id : calculations) {
            assertFalse(graph.rehash(id).changed(), "the hash of calculation " + id + " is its class's");
        }

        ImportResult second = importAiidaArchive();
        for (ArchivePart part : ArchivePart.values()) {
            assertEquals(0, second.added(part), part + " added again");
        }
        assertEquals(reported("nodes"), second.existing());
        assertNull(second.group(), "nothing new, no import group");
        assertEquals(reported("nodes"), GraphFixtures.count(database, "node"));
    }

    @Test
    @Order(2)
    void cairnsExportImportsIntoAiidaWhichCountsWhatCairnExported() throws Exception {
        Path file = tmp.resolve("from-cairn.aiida");
        ArchiveHeader exported;
        try (AiidaArchiveWriter writer = new AiidaArchiveWriter(file)) {
            exported = new ArchiveExport(database, container, "cairn test")
                    .export(ExportRequest.ofEverything(), writer, ArchiveProgress.NONE);
        }
        assertEquals(reported("nodes"), exported.count(ArchivePart.NODES));
        assertEquals(reported("objects"), exported.count(ArchivePart.OBJECTS));

        JsonNode imported = AiidaPython.importArchive(file, tmp.resolve("aiida-home"));
        JsonNode entities = imported.get("info").get("entities");
        assertEquals(
                exported.count(ArchivePart.USERS),
                entities.get("Users").get("count").asLong(),
                "users");
        assertEquals(
                exported.count(ArchivePart.COMPUTERS),
                entities.get("Computers").get("count").asLong());
        assertEquals(
                exported.count(ArchivePart.NODES),
                entities.get("Nodes").get("count").asLong(),
                "nodes");
        assertEquals(
                exported.count(ArchivePart.GROUPS),
                entities.get("Groups").get("count").asLong(),
                "groups");
        assertEquals(
                exported.count(ArchivePart.COMMENTS),
                entities.get("Comments").get("count").asLong());
        assertEquals(
                exported.count(ArchivePart.LOGS),
                entities.get("Logs").get("count").asLong(),
                "logs");
        assertEquals(
                exported.count(ArchivePart.LINKS),
                entities.get("Links").get("count").asLong(),
                "links");
        assertEquals(
                exported.count(ArchivePart.OBJECTS),
                imported.get("info")
                        .get("repository")
                        .get("objects")
                        .get("count")
                        .asLong(),
                "objects");

        // and aiida-core holds the graph it exported in the first place
        JsonNode before = imported.get("before");
        assertEquals(
                reported("nodes"),
                imported.get("counts").get("nodes").asLong()
                        - before.get("nodes").asLong());
        assertEquals(aiida.report().get("node_types"), imported.get("node_types"));
        JsonNode built = aiida.report().get("rows");
        for (ArchivePart part : List.of(ArchivePart.NODES, ArchivePart.LINKS, ArchivePart.COMMENTS, ArchivePart.LOGS)) {
            SameRows.assertSameRows(
                    part, built.get(part.key()), imported.get("rows").get(part.key()));
        }
        assertEquals(aiida.report().get("objects"), imported.get("objects"));
    }

    /** Runs {@code sql} on Cairn's database, passing each row to {@code row}. */
    private static void query(String sql, RowHandler row) throws SQLException {
        try (Connection c = database.connection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                row.accept(r);
            }
        }
    }

    private interface RowHandler {
        void accept(ResultSet r) throws SQLException;
    }

    private static JsonNode json(String jsonb) {
        return ArchiveContents.JSON.readTree(jsonb);
    }

    /** An object's members in name order (jsonb orders them its own way). */
    private static String sorted(JsonNode object) {
        Map<String, String> members = new TreeMap<>();
        object.properties().forEach(e -> members.put(e.getKey(), e.getValue().toString()));
        return members.toString();
    }
}
