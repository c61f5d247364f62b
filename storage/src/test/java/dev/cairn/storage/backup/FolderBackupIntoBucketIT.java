package dev.cairn.storage.backup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.objects.Compression;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.objects.ContainerStats;
import dev.cairn.storage.objects.ObjectKey;
import dev.cairn.storage.objects.S3Location;
import dev.cairn.storage.objects.testing.S3Server;
import dev.cairn.storage.testing.TestDatabase;

/**
 * A backup of an installation whose object store is a folder, restored into one whose store is a bucket
 * (S3Proxy): the way from one machine's disk to S3. Every object comes back under its key with its
 * content (packed compressed, packed plain, loose, and one streamed in parts), the database's rows with
 * them, and a bucket that holds objects already is refused before anything changes.
 */
class FolderBackupIntoBucketIT {

    @RegisterExtension
    static final TestDatabase source = new TestDatabase();

    @RegisterExtension
    static final TestDatabase target = new TestDatabase();

    @RegisterExtension
    static final TestDatabase refused = new TestDatabase();

    @TempDir
    static Path work;

    static S3Server server;
    static Path backup;
    static final List<byte[]> contents = new ArrayList<>();
    static final List<ObjectKey> keys = new ArrayList<>();

    @BeforeAll
    static void backUpAFolderInstallation() throws Exception {
        server = new S3Server(work.resolve("s3"));
        try (Database db = Database.open(DatabaseConfig.of(source.jdbcUrl()))) {
            try (Connection c = source.connect()) {
                addNodes(c, 7);
            }
            Random r = new Random(26);
            try (Container store = Container.init(work.resolve("store"), ContainerConfig.defaults())) {
                List<byte[]> text = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    text.add(("compressible text of object " + i + " ")
                            .repeat(40)
                            .getBytes(StandardCharsets.UTF_8));
                }
                keys.addAll(store.putAllToPacks(text, Compression.ZSTD));
                contents.addAll(text);
                for (int i = 0; i < 100; i++) {
                    byte[] b = new byte[r.nextInt(3000)];
                    r.nextBytes(b);
                    keys.add(store.put(b));
                    contents.add(b);
                }
                store.packAllLoose(Compression.NONE);
                store.cleanStorage(false);
                for (int i = 0; i < 50; i++) {
                    byte[] b = ("loose " + i).getBytes(StandardCharsets.UTF_8);
                    keys.add(store.put(b));
                    contents.add(b);
                }
                byte[] large = new byte[20 << 20];
                r.nextBytes(large);
                keys.add(store.put(new ByteArrayInputStream(large)));
                contents.add(large);
                ContainerStats stats = store.stats();
                assertEquals(51, stats.looseObjects(), "the backup holds loose objects too");
                backup = Backups.create(work.resolve("backups"), 0, db.dataSource(), store, step -> {})
                        .path();
            }
        }
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static void addNodes(Connection c, int n) throws SQLException {
        long user;
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery(
                        "INSERT INTO app_user (email, first_name, institution) VALUES ('ada@example.org', 'Ada', '')"
                                + " RETURNING id")) {
            r.next();
            user = r.getLong(1);
        }
        try (PreparedStatement p = c.prepareStatement("INSERT INTO node (uuid, node_type, label, description,"
                + " ctime, mtime, user_id, attributes, extras) VALUES (?, 'data.core.str.', ?, '', now(), now(), ?,"
                + " '{}'::jsonb, '{}')")) {
            for (int i = 0; i < n; i++) {
                p.setObject(1, UUID.randomUUID());
                p.setString(2, "n" + i);
                p.setLong(3, user);
                p.executeUpdate();
            }
        }
    }

    private static DataSource dataSource(TestDatabase db) {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setURL(db.jdbcUrl());
        return ds;
    }

    private static long nodes(TestDatabase db) throws SQLException {
        try (Connection c = db.connect();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM node")) {
            r.next();
            return r.getLong(1);
        }
    }

    private static S3Location bucket(String name, String host) {
        return S3Location.of(name, "cairn/", server.endpoint(), "us-east-1", work.resolve(host))
                .withCredentials(S3Server.ACCESS_KEY, S3Server.SECRET_KEY);
    }

    @Test
    void everyObjectOfAFolderStoreComesBackInTheBucketWithTheRows() throws Exception {
        S3Location at = bucket(server.newBucket(), "restoring-host");
        List<String> steps = new ArrayList<>();

        Restore.run(backup, dataSource(target), at, steps::add);

        assertEquals(7, nodes(target));
        assertTrue(
                steps.stream().anyMatch(s -> s.startsWith("objects: " + keys.size() + " of " + keys.size())),
                steps.toString());
        // read from another host: nothing but the bucket
        try (Container restored = Container.open(bucket(at.bucket(), "another-host"))) {
            Map<ObjectKey, byte[]> back = restored.getAll(keys);
            assertEquals(keys.size(), back.size());
            for (int i = 0; i < keys.size(); i++) {
                assertArrayEquals(contents.get(i), back.get(keys.get(i)), "object " + i);
            }
            ContainerStats stats = restored.stats();
            assertEquals(0, stats.looseObjects(), "written in one pack batch");
            assertEquals(keys.size(), stats.packedObjects());
            assertEquals(
                    ContainerConfig.bucketDefaults().packSizeTarget(),
                    restored.config().packSizeTarget());
            assertTrue(restored.validate().isValid());
        }
    }

    @Test
    void aBucketHoldingObjectsIsRefusedBeforeAnythingChanges() throws Exception {
        S3Location at = bucket(server.newBucket(), "occupied-host");
        ObjectKey there;
        try (Container occupied = Container.init(at, ContainerConfig.bucketDefaults())) {
            there = occupied.put("already here".getBytes(StandardCharsets.UTF_8));
        }

        ConflictException e =
                assertThrows(ConflictException.class, () -> Restore.run(backup, dataSource(refused), at, s -> {}));

        assertTrue(e.getMessage().contains("holds 1 objects"), e.getMessage());
        assertTrue(e.getMessage().contains(at.bucket()), e.getMessage());
        try (Connection c = refused.connect()) {
            assertEquals(List.of(), DatabaseLoad.contents(c), "no row loaded");
        }
        try (Container occupied = Container.open(at)) {
            assertEquals(1, occupied.stats().looseObjects() + occupied.stats().packedObjects());
            assertArrayEquals("already here".getBytes(StandardCharsets.UTF_8), occupied.get(there));
        }
    }
}
