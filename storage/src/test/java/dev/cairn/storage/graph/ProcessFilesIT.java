package dev.cairn.storage.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.db.Transactions;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.testing.TestDatabase;

/** A stored process takes files (a calculation job its input files) until it is sealed; its hash stays. */
class ProcessFilesIT {

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
        graph = new GraphStore(database, container, GraphFixtures.user(database, "files@example.com"));
    }

    @AfterAll
    static void close() throws Exception {
        container.close();
        database.close();
    }

    @Test
    void anUnsealedProcessTakesAFolderAsItsFilesAndKeepsItsHash() throws Exception {
        CalcJobNode job = storedJob();
        String hash = job.hash();
        Path folder = folder("first", "aiida.in", "echo 1", "_cairn_submit.sh", "#!/bin/bash");
        Files.createDirectories(folder.resolve("empty"));

        replace(job, folder);

        assertEquals(
                List.of("_cairn_submit.sh", "aiida.in", "empty"), job.files().list(""));
        CalcJobNode read = graph.load(job.id(), CalcJobNode.class);
        assertEquals(job.files().keys(), read.files().keys());
        assertTrue(read.files().exists("empty"), "an empty folder is kept too");
        assertEquals("echo 1", new String(graph.readFile(read, "aiida.in"), StandardCharsets.UTF_8));
        assertEquals(hash, read.hash());
        assertFalse(graph.rehash(job.id()).changed(), "a process's files are not part of its hash");
        assertThrows(ModificationNotAllowedException.class, () -> read.files().put("x", new byte[0]));
    }

    @Test
    void aNewSetReplacesTheOldOneAndARollbackKeepsIt() throws Exception {
        CalcJobNode job = storedJob();
        replace(job, folder("one", "a.in", "a"));
        replace(job, folder("two", "b.in", "b"));
        assertEquals(List.of("b.in"), graph.load(job.id()).files().list(""));

        Path three = folder("three", "c.in", "c");
        assertThrows(
                IllegalStateException.class,
                () -> Transactions.run(database, c -> {
                    graph.inTransaction(c).replaceFiles(job, three);
                    throw new IllegalStateException("the step failed");
                }));
        assertEquals(List.of("b.in"), graph.load(job.id()).files().list(""), "the committed set stays");
    }

    @Test
    void aSealedOrUnstoredProcessAndDataAreRefused() throws Exception {
        Path folder = folder("refused", "x.in", "x");
        CalcJobNode unstored = new CalcJobNode("test.job");
        InvalidInputException notStored = assertThrows(InvalidInputException.class, () -> replace(unstored, folder));
        assertTrue(notStored.getMessage().contains("is not stored"), notStored.getMessage());

        CalcJobNode sealed = storedJob();
        sealed.setProcessState("finished");
        graph.seal(sealed);
        ModificationNotAllowedException e =
                assertThrows(ModificationNotAllowedException.class, () -> replace(sealed, folder));
        assertTrue(e.getMessage().contains("is sealed: its files cannot change"), e.getMessage());
        assertTrue(graph.load(sealed.id()).files().isEmpty());

        // what the database refuses, for a writer that goes around the store
        String files = "'{\"o\": {\"x\": {\"k\": \"" + "0".repeat(64) + "\"}}}'";
        RuntimeException onSealed =
                sqlFails("UPDATE node SET repository_metadata = " + files + " WHERE id = " + sealed.id());
        assertInstanceOf(ModificationNotAllowedException.class, onSealed);
        assertTrue(onSealed.getMessage().contains("is sealed: its files cannot change"), onSealed.getMessage());
        IntData data = graph.store(new IntData(1));
        RuntimeException onData =
                sqlFails("UPDATE node SET repository_metadata = " + files + " WHERE id = " + data.id());
        assertInstanceOf(ModificationNotAllowedException.class, onData);
        assertTrue(onData.getMessage().contains("files of a data node cannot change"), onData.getMessage());
    }

    private static CalcJobNode storedJob() {
        CalcJobNode job = new CalcJobNode("test.job");
        job.setProcessState("created");
        return graph.store(job);
    }

    private static void replace(ProcessNode node, Path folder) throws SQLException {
        Transactions.run(database, c -> {
            graph.inTransaction(c).replaceFiles(node, folder);
            return null;
        });
    }

    /** A folder under the test's directory with files named and filled by pairs of arguments. */
    private static Path folder(String name, String... namesAndContents) throws Exception {
        Path folder = Files.createDirectories(tmp.resolve(name));
        for (int i = 0; i < namesAndContents.length; i += 2) {
            Files.writeString(folder.resolve(namesAndContents[i]), namesAndContents[i + 1]);
        }
        return folder;
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
}
