package dev.cairn.api.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.SpringApplication;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.CairnApplication;
import dev.cairn.api.processes.Processes;
import dev.cairn.api.testing.Amqp;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiServices;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.api.testing.Multipart;
import dev.cairn.storage.archive.ArchiveExport;
import dev.cairn.storage.archive.ArchiveFormat;
import dev.cairn.storage.archive.ArchiveImport;
import dev.cairn.storage.archive.ArchivePart;
import dev.cairn.storage.archive.ArchiveProgress;
import dev.cairn.storage.archive.ArchiveWriter;
import dev.cairn.storage.archive.ExportRequest;
import dev.cairn.storage.archive.ImportOptions;
import dev.cairn.storage.archive.ImportResult;
import dev.cairn.storage.backup.Backups;
import dev.cairn.storage.backup.Restore;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.graph.GraphFixtures;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.SinglefileData;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.objects.ContainerStats;
import dev.cairn.storage.objects.NotAContainerException;
import dev.cairn.storage.objects.ObjectKey;
import dev.cairn.storage.objects.S3Location;
import dev.cairn.storage.objects.testing.S3Server;
import dev.cairn.storage.testing.TestDatabase;

/**
 * The server with its object store in an S3 bucket (S3Proxy in the test JVM), tested above the store:
 * files stored and read back through the API, maintenance packing, sweeping and validating in the bucket,
 * archives exported from and imported into installations on buckets, a backup of the bucket into a folder,
 * its restore into an empty installation on another bucket (damaged backups refused, the bucket left
 * without objects), and a shell job run by the server's worker. After each step the bucket is counted as
 * another host sees it, with a cache folder of its own.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BucketStoreIT extends ApiTest {

    static final Duration GRACE = Duration.ofSeconds(2);

    /** Another installation, on a bucket of its own, that archives come from and go to. */
    @RegisterExtension
    static final TestDatabase elsewhere = new TestDatabase();

    /** The empty installation the backup is restored into. */
    @RegisterExtension
    static final TestDatabase restored = new TestDatabase();

    @TempDir
    static Path work;

    private static String bucket;
    private static Database elsewhereDb;
    private static Container elsewhereStore;
    /** The bucket of the installation the backup is restored into. */
    private static String restoreBucket;

    /** The files stored through the API: their node's uuid and file name, and their content. */
    private static final Map<String, byte[]> FILES = new LinkedHashMap<>();

    @DynamicPropertySource
    static void storeInABucket(DynamicPropertyRegistry registry) {
        registry.add("cairn.store.s3.bucket", BucketStoreIT::bucket);
        registry.add(
                "cairn.store.s3.endpoint", () -> ApiServices.s3().endpoint().toString());
        registry.add("cairn.store.s3.access-key", () -> S3Server.ACCESS_KEY);
        registry.add("cairn.store.s3.secret-key", () -> S3Server.SECRET_KEY);
        registry.add("cairn.store.s3.max-attempts", () -> "3");
        registry.add("cairn.store.deletion-grace", () -> GRACE.toSeconds() + "s");
    }

    private static synchronized String bucket() {
        if (bucket == null) {
            bucket = ApiServices.s3().newBucket();
        }
        return bucket;
    }

    @AfterAll
    static void closeElsewhere() throws IOException {
        if (elsewhereStore != null) {
            elsewhereStore.close();
        }
        if (elsewhereDb != null) {
            elsewhereDb.close();
        }
    }

    /** The server's bucket as another host sees it: a cache folder of its own, the index read from the bucket. */
    private static Container anotherHost(String name) throws IOException {
        return Container.open(
                S3Location.of(bucket(), "", ApiServices.s3().endpoint(), "us-east-1", work.resolve("host-" + name))
                        .withCredentials(S3Server.ACCESS_KEY, S3Server.SECRET_KEY));
    }

    private static Set<ObjectKey> keys(Container store) throws IOException {
        Set<ObjectKey> keys = new HashSet<>();
        store.forEachKey(keys::add);
        return keys;
    }

    private String upload(String name, byte[] content) {
        Api.Response made = new Multipart().file("file", name, content).post(admin(), "/api/v1/nodes/files");
        assertEquals(201, made.status(), made.toString());
        String uuid = made.json().get("uuid").asString();
        FILES.put(uuid + "/" + name, content);
        return uuid;
    }

    private byte[] read(String fileOfNode) throws IOException {
        Api admin = admin();
        HttpResponse<InputStream> r = admin.stream(admin.request("/api/v1/nodes/" + fileOfNode.replace("/", "/files/"))
                .GET());
        try (InputStream in = r.body()) {
            byte[] body = in.readAllBytes();
            assertEquals(200, r.statusCode(), fileOfNode + ": " + new String(body, StandardCharsets.UTF_8));
            return body;
        }
    }

    private void assertEveryFileReadsBack() throws IOException {
        for (Map.Entry<String, byte[]> file : FILES.entrySet()) {
            assertArrayEquals(file.getValue(), read(file.getKey()), file.getKey());
        }
    }

    private JsonNode maintain(String body) {
        Api.Response r = admin().post("/api/v1/storage/maintenance", body);
        assertEquals(200, r.status(), r.toString());
        return r.json();
    }

    @Test
    @Order(1)
    void filesStoredThroughTheApiAreObjectsOfTheBucketAndReadBackByteEqual() throws Exception {
        byte[] big = new byte[3 * 1024 * 1024];
        new Random(26).nextBytes(big);
        upload("big.bin", big);
        upload("a.txt", "alpha\n".getBytes(StandardCharsets.UTF_8));
        upload("same-as-a.txt", "alpha\n".getBytes(StandardCharsets.UTF_8));
        upload("b.txt", "beta\n".getBytes(StandardCharsets.UTF_8));
        assertEveryFileReadsBack();

        JsonNode info = admin().get("/api/v1/storage").json();
        assertTrue(info.get("objectStore").asString().startsWith("s3://" + bucket() + "/ at "), info.toString());
        assertEquals(3, info.get("objects").get("looseObjects").asLong(), "two files share one object: " + info);
        try (Container host = anotherHost("1")) {
            ContainerStats stats = host.stats();
            assertEquals(3, stats.looseObjects(), stats.toString());
            assertEquals(0, stats.packedObjects(), stats.toString());
            assertEquals(keys(engine.graph().objectStore()), keys(host));
        }
        assertFalse(Files.exists(dataDir.resolve("objects")), "nothing went to a folder store");
    }

    @Test
    @Order(2)
    void maintenancePacksSweepsAndValidatesInTheBucket() throws Exception {
        JsonNode packed = maintain("{}");
        assertEquals(3, packed.get("objectsPacked").asLong(), packed.toString());
        assertEquals(0, packed.get("after").get("looseObjects").asLong(), packed.toString());
        assertEquals(3, packed.get("after").get("packedObjects").asLong(), packed.toString());

        byte[] orphanBytes = "no node refers to this".getBytes(StandardCharsets.UTF_8);
        ObjectKey orphan = engine.graph().objectStore().put(orphanBytes);
        Thread.sleep(GRACE.plusMillis(500).toMillis()); // only an object older than the grace is marked
        JsonNode marked = maintain("{\"full\": true}");
        assertEquals(1, marked.get("unreferencedMarked").asLong(), marked.toString());
        assertEquals(0, marked.get("unreferencedDeleted").asLong(), marked.toString());
        // a mark is old enough after the grace and a second (how stale another process's view may be)
        Thread.sleep(GRACE.plusSeconds(1).plusMillis(500).toMillis());
        JsonNode swept = maintain("{\"full\": true}");
        assertEquals(1, swept.get("unreferencedDeleted").asLong(), swept.toString());
        assertEquals(0, swept.get("pendingDeletion").asLong(), swept.toString());

        JsonNode valid = admin().post("/api/v1/storage/validation", "").json();
        assertTrue(valid.get("valid").asBoolean(), valid.toString());
        try (Container host = anotherHost("2")) {
            ContainerStats stats = host.stats();
            assertEquals(0, stats.looseObjects(), stats.toString());
            assertEquals(3, stats.packedObjects(), stats.toString());
            assertFalse(host.contains(orphan), "the swept object is gone from the bucket");
            assertTrue(host.validate().isValid(), "the bucket's container validates from another host");
        }
        assertEveryFileReadsBack();
    }

    @Test
    @Order(3)
    void anArchiveOfTheServerImportsIntoAnotherBucketAndOneFromThereIntoTheServer() throws Exception {
        Api admin = admin();
        HttpResponse<InputStream> exported = admin.stream(admin.request("/api/v1/archive?all=true"));
        byte[] archive;
        try (InputStream in = exported.body()) {
            archive = in.readAllBytes();
        }
        assertEquals(200, exported.statusCode(), new String(archive, StandardCharsets.UTF_8));

        elsewhereDb = Database.open(DatabaseConfig.of(elsewhere.jdbcUrl()));
        elsewhereStore = Container.init(
                ApiServices.s3().location(work.resolve("elsewhere-cache")), ContainerConfig.bucketDefaults());
        long bob = GraphFixtures.user(elsewhereDb, "bob@elsewhere");
        ImportResult in = new ArchiveImport(elsewhereDb, elsewhereStore, bob)
                .importFrom(
                        ArchiveFormat.CAIRN.open(new ByteArrayInputStream(archive)),
                        ImportOptions.defaults(),
                        ArchiveProgress.NONE);
        assertEquals(4, in.added(ArchivePart.NODES), in.toString());
        assertEquals(3, in.added(ArchivePart.OBJECTS), in.toString());
        assertEquals(keys(engine.graph().objectStore()), keys(elsewhereStore));
        for (ObjectKey key : keys(elsewhereStore)) {
            assertArrayEquals(engine.graph().objectStore().get(key), elsewhereStore.get(key), key.toString());
        }

        // back the other way: a node made there, exported from its bucket and imported here through the API
        byte[] theirs = "gamma, from elsewhere\n".getBytes(StandardCharsets.UTF_8);
        SinglefileData made =
                new GraphStore(elsewhereDb, elsewhereStore, bob).store(new SinglefileData("c.txt", theirs));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ArchiveWriter writer = ArchiveFormat.CAIRN.writer(out)) {
            new ArchiveExport(elsewhereDb, elsewhereStore, "cairn test")
                    .export(ExportRequest.ofEverything(), writer, ArchiveProgress.NONE);
        }
        Api.Response imported = admin.send(admin.request("/api/v1/archive")
                .header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(out.toByteArray())));
        assertEquals(200, imported.status(), imported.toString());
        assertEquals(1, imported.json().get("added").get("nodes").asLong(), imported.toString());
        assertEquals(1, imported.json().get("added").get("objects").asLong(), imported.toString());
        assertEquals(4, imported.json().get("existing").asLong(), imported.toString());
        FILES.put(made.uuid() + "/c.txt", theirs);
        assertEveryFileReadsBack();
        try (Container host = anotherHost("3")) {
            assertEquals(4, keys(host).size(), "the three objects and the imported one");
        }
    }

    @Test
    @Order(4)
    void aBackupCopiesTheBucketsContainerIntoAFolderObjectForObject() throws Exception {
        Path dest = work.resolve("backups");
        Api admin = admin();
        Api.Response r = admin.send(admin.request("/api/v1/storage/backups")
                .header("Content-Type", "application/json")
                .header("Accept", StorageController.NDJSON)
                .POST(HttpRequest.BodyPublishers.ofString("{\"destination\": \"" + dest + "\"}")));
        assertEquals(200, r.status(), r.toString());
        assertTrue(r.body().strip().lines().reduce((a, b) -> b).orElseThrow().startsWith("{\"done\""), r.body());

        Path backup = Backups.latest(dest);
        try (Container copy = Container.open(backup.resolve("objects"));
                Container host = anotherHost("4")) {
            assertEquals(keys(host), keys(copy));
            ContainerStats stats = copy.stats();
            assertEquals(4, stats.looseObjects() + stats.packedObjects(), stats.toString());
            assertTrue(copy.validate().isValid(), "the backup's container validates");
            for (ObjectKey key : keys(host)) {
                assertArrayEquals(host.get(key), copy.get(key), key.toString());
            }
        }
    }

    @Test
    @Order(5)
    void damagedBackupsAreRefusedNamingWhatIsWrongAndLeaveTheBucketWithoutObjects() throws Exception {
        Path backup = Backups.latest(work.resolve("backups"));
        restoreBucket = ApiServices.s3().newBucket();

        // a flipped byte in the big file's bytes: that object no longer has its key
        Path flipped = copyOf(backup, work.resolve("flipped"));
        Path pack;
        try (Stream<Path> packs = Files.list(flipped.resolve("objects").resolve("packs"))) {
            pack = packs.max(Comparator.comparingLong(p -> p.toFile().length())).orElseThrow();
        }
        try (RandomAccessFile file = new RandomAccessFile(pack.toFile(), "rw")) {
            file.seek(file.length() / 2);
            int b = file.read();
            file.seek(file.length() / 2);
            file.write(b ^ 0xff);
        }
        RuntimeException damaged = assertThrows(
                RuntimeException.class, () -> Restore.run(flipped, restoredDatabase(), restoreBucket(), step -> {}));
        assertTrue(damaged.getMessage().contains(bigKey().toString()), damaged.getMessage());
        assertNothingRestored();

        // a table's dump cut short: the objects went in first, and are taken out again
        Path truncated = copyOf(backup, work.resolve("truncated"));
        Path nodes = truncated.resolve("db").resolve("node.copy");
        List<String> rows = Files.readAllLines(nodes, StandardCharsets.UTF_8);
        Files.write(nodes, rows.subList(0, rows.size() - 1), StandardCharsets.UTF_8);
        RuntimeException cut = assertThrows(
                RuntimeException.class, () -> Restore.run(truncated, restoredDatabase(), restoreBucket(), step -> {}));
        assertTrue(cut.getMessage().contains("node.copy holds 4 rows; the manifest says 5"), cut.getMessage());
        assertNothingRestored();
    }

    private static S3Location restoreBucket() {
        return S3Location.of(restoreBucket, "", ApiServices.s3().endpoint(), "us-east-1", work.resolve("host-restored"))
                .withCredentials(S3Server.ACCESS_KEY, S3Server.SECRET_KEY);
    }

    private static PGSimpleDataSource restoredDatabase() {
        PGSimpleDataSource database = new PGSimpleDataSource();
        database.setURL(restored.jdbcUrl());
        database.setUser(restored.user());
        database.setPassword(restored.password());
        return database;
    }

    /** The nodes of the restored installation; 0 while its schema has no tables. */
    private static long restoredNodes() throws SQLException {
        try (Connection c = restored.connect();
                ResultSet table = c.createStatement().executeQuery("SELECT to_regclass('node') IS NOT NULL")) {
            table.next();
            if (!table.getBoolean(1)) {
                return 0;
            }
            try (ResultSet r = c.createStatement().executeQuery("SELECT count(*) FROM node")) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    private static void assertNothingRestored() throws Exception {
        assertEquals(0, restoredNodes());
        try (Container bucket = Container.open(restoreBucket())) {
            assertEquals(Set.of(), keys(bucket));
        } catch (NotAContainerException none) {
            // refused before a container was made
        }
    }

    private static ObjectKey bigKey() throws Exception {
        byte[] big = FILES.entrySet().stream()
                .filter(e -> e.getKey().endsWith("/big.bin"))
                .findFirst()
                .orElseThrow()
                .getValue();
        return ObjectKey.of(
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(big)));
    }

    private static Path copyOf(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Files.copy(p, to.resolve(from.relativize(p).toString()));
            }
        }
        return to;
    }

    @Test
    @Order(6)
    void theBackupRestoresIntoTheEmptyInstallationOnABucketAndNotIntoOneThatHoldsObjects() throws Exception {
        Path backups = work.resolve("backups");
        // as CairnApplication.main starts a restore, without its System.exit
        SpringApplication app = new SpringApplication(CairnApplication.class);
        app.setDefaultProperties(Map.of("cairn.roles", "api", "server.port", "0"));
        app.run(
                        "--cairn.restore-from=" + backups,
                        "--cairn.database.url=" + restored.jdbcUrl(),
                        "--cairn.broker.uri=" + Amqp.uri(ApiServices.broker()),
                        "--cairn.data-dir=" + work.resolve("restored-data"),
                        "--cairn.store.s3.bucket=" + restoreBucket,
                        "--cairn.store.s3.endpoint=" + ApiServices.s3().endpoint(),
                        "--cairn.store.s3.access-key=" + S3Server.ACCESS_KEY,
                        "--cairn.store.s3.secret-key=" + S3Server.SECRET_KEY)
                .close();

        S3Location restoredBucket = restoreBucket();
        try (Container copy = Container.open(restoredBucket);
                Container host = anotherHost("5")) {
            assertEquals(keys(host), keys(copy));
            ContainerStats stats = copy.stats();
            assertEquals(0, stats.looseObjects(), "written into packs: " + stats);
            assertEquals(4, stats.packedObjects(), stats.toString());
            assertTrue(copy.validate().isValid(), "the restored bucket validates");
            for (ObjectKey key : keys(host)) {
                assertArrayEquals(host.get(key), copy.get(key), key.toString());
            }
        }
        assertFalse(Files.exists(work.resolve("restored-data").resolve("objects")), "nothing went to a folder");
        assertEquals(5, restoredNodes(), "every node of the backup");

        // again: the database and the bucket hold what the first restore put there; nothing changes
        PGSimpleDataSource database = new PGSimpleDataSource();
        database.setURL(restored.jdbcUrl());
        database.setUser(restored.user());
        database.setPassword(restored.password());
        ConflictException refused =
                assertThrows(ConflictException.class, () -> Restore.run(backups, database, restoredBucket, step -> {}));
        assertTrue(
                refused.getMessage().contains("the object store s3://" + restoreBucket + "/ at "),
                refused.getMessage());
        assertTrue(refused.getMessage().contains(" holds 4 objects"), refused.getMessage());
        assertTrue(refused.getMessage().contains(", node (5 rows), "), refused.getMessage());
        try (Container copy = Container.open(restoredBucket)) {
            assertEquals(4, copy.stats().packedObjects());
        }
    }

    @Test
    @Order(7)
    void aShellJobReadsItsInputFromTheBucketAndStoresItsOutputsThere() throws Exception {
        Api admin = admin();
        localComputer("localhost", dataDir.resolve("work"));
        String data = upload("data.txt", "b\na\nc\n".getBytes(StandardCharsets.UTF_8));
        Api.Response launched = admin.post("/api/v1/shell-jobs", """
                {"command": "bash -c 'sort {data} | head -n 2 > first.txt'",
                 "nodes": {"data": {"uuid": "%s"}},
                 "outputs": ["first.txt"]}""".formatted(data));
        assertEquals(201, launched.status(), launched.toString());
        String uuid = launched.json().get("uuid").asString();

        JsonNode detail = Processes.awaitEnd(admin, uuid, Duration.ofSeconds(60));
        assertEquals(0, detail.get("exit_code").get("status").asInt(), detail.toString());
        String first = detail.get("outputs").get("first_txt").get("uuid").asString();
        assertEquals(
                "a\nb\n",
                admin.get("/api/v1/nodes/" + first + "/files/first.txt").body());
        ObjectKey output = ObjectKey.of(admin.get("/api/v1/nodes/" + first + "/files")
                .json()
                .get("entries")
                .get(0)
                .get("key")
                .asString());
        // every object a node refers to, the job's retrieved files too, is in the bucket
        JsonNode valid = admin.post("/api/v1/storage/validation", "").json();
        assertTrue(valid.get("valid").asBoolean(), valid.toString());
        try (Container host = anotherHost("7")) {
            assertArrayEquals("a\nb\n".getBytes(StandardCharsets.UTF_8), host.get(output));
            assertEquals(keys(engine.graph().objectStore()), keys(host));
        }
        assertEveryFileReadsBack();
    }
}
