package dev.cairn.jmh.graph;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.postgresql.PGConnection;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.JsonText;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.StructureData;

/**
 * Storing structure nodes through {@link GraphStore}, against the raw database cost of the
 * same rows: a batch of 1,000 by {@code storeAll} against a bare {@code COPY} of the same
 * attributes (JSON written beforehand), and one node by {@code store} against a bare
 * single-row {@code INSERT}. The ratio is what cleaning, hashing, validation and the
 * rules cost on top of PostgreSQL. Needs {@code CAIRN_TEST_DB_URL}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@State(Scope.Benchmark)
public class StoreBenchmark {

    private static final String DB = "cairn_jmh_store";
    private static final int BATCH = 1000;

    private Database database;
    private GraphStore graph;
    private long user;
    private List<Map<String, Object>> structures;
    private List<String> json;
    private int next;

    @Setup(Level.Trial)
    public void open() throws Exception {
        database = GraphBench.open(GraphBench.freshDatabase(DB));
        user = GraphBench.user(database);
        graph = new GraphStore(database, null, user);
        structures = GraphBench.structures(BATCH, 42);
        json = structures.stream()
                .map(s -> JsonText.write(StructureData.of(s).attributes()))
                .toList();
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        database.close();
        GraphBench.dropDatabase(DB);
    }

    @Benchmark
    public void storeAllBatch() {
        List<Node> nodes = new ArrayList<>(BATCH);
        for (Map<String, Object> s : structures) {
            nodes.add(StructureData.of(s));
        }
        graph.storeAll(nodes);
    }

    @Benchmark
    public long rawCopyBatch() throws Exception {
        try (Connection c = database.connection()) {
            var copy = c.unwrap(PGConnection.class)
                    .getCopyAPI()
                    .copyIn("COPY node (uuid, node_type, label, description, "
                            + "ctime, mtime, user_id, attributes, extras, repository_metadata) FROM STDIN");
            StringBuilder rows = new StringBuilder();
            for (String attributes : json) {
                rows.setLength(0);
                rows.append(UUID.randomUUID())
                        .append("\tdata.core.structure.StructureData.\t\t\tnow\tnow\t")
                        .append(user)
                        .append('\t')
                        .append(attributes.replace("\\", "\\\\"))
                        .append("\t{}\t{}\n");
                byte[] bytes = rows.toString().getBytes(StandardCharsets.UTF_8);
                copy.writeToCopy(bytes, 0, bytes.length);
            }
            return copy.endCopy();
        }
    }

    @Benchmark
    public Node storeOne() {
        return graph.store(StructureData.of(structures.get(next++ % BATCH)));
    }

    @Benchmark
    public int rawInsertOne() throws Exception {
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement(
                        "INSERT INTO node (uuid, node_type, ctime, mtime, user_id, attributes) VALUES (?, ?, now(), now(), ?, ?::jsonb)")) {
            s.setObject(1, UUID.randomUUID());
            s.setString(2, StructureData.TYPE);
            s.setLong(3, user);
            s.setString(4, json.get(next++ % BATCH));
            return s.executeUpdate();
        }
    }
}
