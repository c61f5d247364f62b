package dev.cairn.storage.archive.aiida;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import dev.cairn.storage.archive.ArchiveHeader;
import dev.cairn.storage.archive.ArchivePart;
import dev.cairn.storage.archive.InvalidArchiveException;
import dev.cairn.storage.objects.ObjectKey;

/**
 * What {@link AiidaArchiveWriter} does with rows built in code: they read back as written (process
 * checkpoints stripped, times in UTC), a writer closed unfinished leaves no file, and rows or objects
 * that break the format are refused naming the part and row.
 */
class AiidaArchiveWriterTest {

    @TempDir
    Path dir;

    private Path output() {
        return dir.resolve("small.aiida");
    }

    @Test
    void smallGraphReadsBackAsWritten() throws IOException {
        SmallGraph graph = new SmallGraph();
        try (AiidaArchiveWriter writer = new AiidaArchiveWriter(output())) {
            ArchiveCopy.write(writer, graph.rows, graph.objects);
        }
        ArchiveContents read = ArchiveContents.read(output());
        assertEquals(4, read.header().count(ArchivePart.NODES));
        assertEquals(1, read.header().count(ArchivePart.OBJECTS));
        SameRows.assertSameRows(ArchivePart.USERS, graph.rows.get(ArchivePart.USERS), read.rows(ArchivePart.USERS));
        SameRows.assertSameRows(ArchivePart.LINKS, graph.rows.get(ArchivePart.LINKS), read.rows(ArchivePart.LINKS));
        SameRows.assertSameRows(
                ArchivePart.COMPUTERS, graph.rows.get(ArchivePart.COMPUTERS), read.rows(ArchivePart.COMPUTERS));
        SameRows.assertSameRows(
                ArchivePart.COMMENTS, graph.rows.get(ArchivePart.COMMENTS), read.rows(ArchivePart.COMMENTS));
        assertEquals(
                "2026-01-02T02:04:05.123456Z",
                read.rows(ArchivePart.COMMENTS).get(0).get("ctime").asString());
        assertEquals(graph.objects.keySet(), read.objects().keySet());
        try (AiidaArchiveReader reader = AiidaArchiveReader.open(output());
                Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(output()), left.toList(), "no scratch files beside the archive");
            assertTrue(reader.header().producer().startsWith("aiida-core "));
        }
    }

    @Test
    void processCheckpointsAreStrippedAndOtherAttributesKept() throws IOException {
        SmallGraph graph = new SmallGraph();
        try (AiidaArchiveWriter writer = new AiidaArchiveWriter(output())) {
            ArchiveCopy.write(writer, graph.rows, graph.objects);
        }
        JsonNode calc = ArchiveContents.read(output()).node(graph.calc).get("attributes");
        assertFalse(calc.has("checkpoints"));
        assertEquals(
                ArchiveContents.JSON.readTree("{\"sealed\":true,\"process_state\":\"finished\",\"exit_status\":0}"),
                calc);
    }

    @Test
    void closedWithoutFinishLeavesNoFile() throws IOException {
        SmallGraph graph = new SmallGraph();
        try (AiidaArchiveWriter writer = new AiidaArchiveWriter(output())) {
            writer.begin(header(graph));
            try (OutputStream users = writer.rows(ArchivePart.USERS)) {
                users.write((graph.rows.get(ArchivePart.USERS).get(0) + "\n").getBytes(UTF_8));
            }
        }
        assertFalse(Files.exists(output()));
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "the scratch folder is gone too");
        }
    }

    @Test
    void refusesToWriteOverAFile() throws IOException {
        Files.writeString(output(), "mine");
        try (AiidaArchiveWriter writer = new AiidaArchiveWriter(output())) {
            assertThrows(FileAlreadyExistsException.class, () -> writer.begin(header(new SmallGraph())));
        }
        assertEquals("mine", Files.readString(output()));
    }

    @Test
    void refusesAnObjectWhoseBytesAreNotItsKey() throws IOException {
        SmallGraph graph = new SmallGraph();
        String key = graph.objects.keySet().iterator().next();
        graph.objects.put(key, "something else".getBytes(UTF_8));
        try (AiidaArchiveWriter writer = new AiidaArchiveWriter(output())) {
            InvalidArchiveException e = assertThrows(
                    InvalidArchiveException.class, () -> ArchiveCopy.write(writer, graph.rows, graph.objects));
            assertTrue(e.getMessage().contains("object " + key + ": its content's SHA-256 is "), e.getMessage());
        }
        assertFalse(Files.exists(output()));
    }

    @Test
    void refusesALinkToANodeNotWrittenBefore() throws IOException {
        SmallGraph graph = new SmallGraph();
        graph.first(ArchivePart.LINKS).put("input", SmallGraph.uuid(77));
        try (AiidaArchiveWriter writer = new AiidaArchiveWriter(output())) {
            InvalidArchiveException e = assertThrows(
                    InvalidArchiveException.class, () -> ArchiveCopy.write(writer, graph.rows, graph.objects));
            assertEquals(
                    "archive rows, part links row 1: names node " + SmallGraph.uuid(77)
                            + ", which no earlier row of the archive is",
                    e.getMessage());
        }
        assertFalse(Files.exists(output()));
    }

    @Test
    void refusesAMalformedNodeType() throws IOException {
        SmallGraph graph = new SmallGraph();
        graph.first(ArchivePart.NODES).put("node_type", "data.core.int.Int");
        try (AiidaArchiveWriter writer = new AiidaArchiveWriter(output())) {
            InvalidArchiveException e = assertThrows(
                    InvalidArchiveException.class, () -> ArchiveCopy.write(writer, graph.rows, graph.objects));
            assertTrue(
                    e.getMessage()
                            .startsWith(
                                    "archive rows, part nodes row 1: node_type 'data.core.int.Int' is" + " malformed"),
                    e.getMessage());
        }
    }

    @Test
    void refusesAFileWhoseObjectNeverCame() throws IOException {
        SmallGraph graph = new SmallGraph();
        String key = graph.objects.keySet().iterator().next();
        try (AiidaArchiveWriter writer = new AiidaArchiveWriter(output())) {
            InvalidArchiveException e =
                    assertThrows(InvalidArchiveException.class, () -> ArchiveCopy.write(writer, graph.rows, Map.of()));
            assertEquals(
                    "node " + graph.result + " has a file with key " + key + ", but no object of that key was written",
                    e.getMessage());
        }
        assertFalse(Files.exists(output()));
    }

    @Test
    void refusesMoreRowsThanTheHeaderCounts() throws IOException {
        SmallGraph graph = new SmallGraph();
        try (AiidaArchiveWriter writer = new AiidaArchiveWriter(output())) {
            writer.begin(header(graph));
            OutputStream users = writer.rows(ArchivePart.USERS);
            users.write((graph.rows.get(ArchivePart.USERS).get(0) + "\n").getBytes(UTF_8));
            users.write("{\"email\":\"second@cairn.example\"}\n".getBytes(UTF_8));
            InvalidArchiveException e = assertThrows(InvalidArchiveException.class, users::close);
            assertEquals("archive rows, part users: the header counts 1 rows, but 2 were written", e.getMessage());
            assertThrows(IllegalStateException.class, () -> writer.rows(ArchivePart.COMPUTERS));
        }
        assertFalse(Files.exists(output()));
    }

    @Test
    void partsComeInTheirOrderThenObjects() throws IOException {
        SmallGraph graph = new SmallGraph();
        try (AiidaArchiveWriter writer = new AiidaArchiveWriter(output())) {
            writer.begin(header(graph));
            assertThrows(IllegalStateException.class, () -> writer.rows(ArchivePart.NODES));
            byte[] bytes = graph.objects.values().iterator().next();
            ObjectKey key = ObjectKey.of(graph.objects.keySet().iterator().next());
            assertThrows(
                    IllegalStateException.class,
                    () -> writer.object(key, bytes.length, new ByteArrayInputStream(bytes)));
        }
    }

    private static ArchiveHeader header(SmallGraph graph) {
        Map<ArchivePart, Long> counts = new EnumMap<>(ArchivePart.class);
        graph.rows.forEach((part, rows) -> counts.put(part, (long) rows.size()));
        counts.put(ArchivePart.OBJECTS, (long) graph.objects.size());
        return new ArchiveHeader("cairn", "1", "cairn-test", Instant.now(), Map.of(), counts);
    }
}
