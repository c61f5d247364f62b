package dev.cairn.jmh.archive;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

import dev.cairn.jmh.graph.GraphData;
import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ObjectKey;
import dev.cairn.storage.objects.PackBatch;

/**
 * Loads the archive comparison's workload into an empty installation the fast way, as a bulk store
 * does: node and link rows by COPY straight into the schema (ids given here, the sequence moved past
 * them), the files' distinct contents into packs through one {@link PackBatch}. Memory stays bounded
 * whatever the size: rows stream, and only the offsets and keys of the distinct files are kept (40
 * bytes each). The trees are laid out arithmetically, so the links need no look-up:
 *
 * <pre>
 * per tree, in id order: the root; then for each level d = 1..D its calcs (B^(d-1)), then their outputs
 * (B^d, B per calc); calc k of level d takes output k of level d-1 as its input x
 * </pre>
 *
 * Calcs come out in the workload's calc order, so calc i gets the file of line i of files.tsv.
 */
final class ArchiveGraphLoader {

    private static final int FLUSH_CHARS = 4 << 20;
    private static final HexFormat HEX = HexFormat.of();

    /** What was loaded, and one calc whose file the caller may read back. */
    record Loaded(long nodes, long links, long objects, long sampleCalc, String sampleName, byte[] sampleContent) {}

    private final ArchiveWorkload workload;
    private final int branching;
    private final int depth;
    private final int trees;
    private final int nodesPerTree;
    private final int calcsPerTree;

    ArchiveGraphLoader(ArchiveWorkload workload) {
        this.workload = workload;
        this.branching = workload.treeInt("branching");
        this.depth = workload.treeInt("depth");
        this.trees = workload.treeInt("trees");
        this.nodesPerTree = levelStart(depth + 1);
        this.calcsPerTree = (pow(depth) - 1) / (branching - 1);
    }

    Loaded load(Connection c, Container container) throws SQLException, IOException {
        c.setAutoCommit(false);
        long user = GraphData.user(c);
        long first = nextId(c);
        long structures = copyStructures(c, user, first);
        long treesFirst = first + structures;
        Loaded trees;
        long links;
        // nodes and links in one transaction: a sealed node takes links only in the transaction that stores it
        try (PackBatch batch = container.openPackBatch(container.config().packCompression())) {
            trees = copyTrees(c, user, treesFirst, batch);
            links = copyLinks(c, treesFirst);
            try (Statement s = c.createStatement()) {
                s.execute("SELECT setval(pg_get_serial_sequence('node', 'id'), (SELECT max(id) FROM node))");
            }
            c.commit();
            batch.commit();
        }
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
            s.execute("ANALYZE node");
            s.execute("ANALYZE link");
        }
        return new Loaded(
                structures + trees.nodes(),
                links,
                trees.objects(),
                trees.sampleCalc(),
                trees.sampleName(),
                trees.sampleContent());
    }

    private long copyStructures(Connection c, long user, long first) throws SQLException, IOException {
        String type = workload.structureType();
        String label = workload.structureLabel();
        long id = first;
        try (Rows rows = new Rows(c, NODE_COPY);
                BufferedReader in = Files.newBufferedReader(workload.file("structures.jsonl"))) {
            String line;
            while ((line = in.readLine()) != null) {
                rows.node(id++, type, null, label, user, line, "{}");
            }
        }
        return id - first;
    }

    private Loaded copyTrees(Connection c, long user, long first, PackBatch batch) throws SQLException, IOException {
        Map<?, ?> root = workload.treeNode("root");
        Map<?, ?> calc = workload.treeNode("calc");
        Map<?, ?> output = workload.treeNode("output");
        String calcAttributes = JsonCodec.write(calc.get("attributes"));
        DistinctFiles files = new DistinctFiles(batch);
        long nodes = 0;
        long sampleCalc = -1;
        String sampleName = null;
        byte[] sample = null;
        try (Rows rows = new Rows(c, NODE_COPY);
                BufferedReader tsv = Files.newBufferedReader(workload.file("files.tsv"));
                FileChannel blob = FileChannel.open(workload.file("files.bin"), StandardOpenOption.READ)) {
            for (int t = 0; t < trees; t++) {
                long base = first + (long) t * nodesPerTree;
                rows.node(
                        base, (String) root.get("node_type"), null, "tree-root", user, "{\"value\": " + t + "}", "{}");
                for (int d = 1; d <= depth; d++) {
                    int width = pow(d - 1);
                    for (int k = 0; k < width; k++) {
                        String[] f = tsv.readLine().split("\t");
                        long offset = Long.parseLong(f[1]);
                        int size = Integer.parseInt(f[2]);
                        ObjectKey key = files.key(blob, offset, size);
                        long id = base + levelStart(d) + k;
                        rows.node(
                                id,
                                (String) calc.get("node_type"),
                                (String) calc.get("process_type"),
                                (String) calc.get("label"),
                                user,
                                calcAttributes,
                                "{\"o\": {\"" + f[0] + "\": {\"k\": \"" + HEX.formatHex(key.digest()) + "\"}}}");
                        if (sample == null && size > 1000) {
                            sampleCalc = id;
                            sampleName = f[0];
                            sample = read(blob, offset, size);
                        }
                    }
                    for (int o = 0; o < width * branching; o++) {
                        rows.node(
                                base + levelStart(d) + width + o,
                                (String) output.get("node_type"),
                                null,
                                "tree-d" + d,
                                user,
                                "{\"value\": " + (o % branching) + "}",
                                "{}");
                    }
                }
                nodes += nodesPerTree;
            }
            if (tsv.readLine() != null) {
                throw new IllegalStateException("files.tsv has more lines than the trees have calcs");
            }
        }
        return new Loaded(nodes, 0, files.count, sampleCalc, sampleName, sample);
    }

    private long copyLinks(Connection c, long first) throws SQLException {
        long links = 0;
        try (Rows rows = new Rows(c, "COPY link (input_id, output_id, type, label) FROM STDIN")) {
            for (int t = 0; t < trees; t++) {
                long base = first + (long) t * nodesPerTree;
                for (int d = 1; d <= depth; d++) {
                    int width = pow(d - 1);
                    for (int k = 0; k < width; k++) {
                        long calc = base + levelStart(d) + k;
                        long input = d == 1 ? base : base + levelStart(d - 1) + pow(d - 2) + k;
                        rows.link(input, calc, "input_calc", "x");
                        for (int j = 0; j < branching; j++) {
                            rows.link(
                                    calc,
                                    base + levelStart(d) + width + (long) k * branching + j,
                                    "create",
                                    "out_" + j);
                        }
                        links += 1 + branching;
                    }
                }
            }
        }
        return links;
    }

    /** Index within a tree of level d's first calc (level D+1: the tree's size). */
    private int levelStart(int d) {
        int start = 1;
        for (int e = 1; e < d; e++) {
            start += pow(e - 1) + pow(e);
        }
        return start;
    }

    private int pow(int e) {
        int p = 1;
        for (int i = 0; i < e; i++) {
            p *= branching;
        }
        return p;
    }

    private static long nextId(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT coalesce(max(id), 0) + 1 FROM node")) {
            r.next();
            return r.getLong(1);
        }
    }

    private static byte[] read(FileChannel blob, long offset, int size) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(size);
        while (buffer.hasRemaining()) {
            if (blob.read(buffer, offset + buffer.position()) < 0) {
                throw new IOException("files.bin ends before " + (offset + size));
            }
        }
        return buffer.array();
    }

    /**
     * The distinct contents of files.bin: each first met at an offset past the last one (a copy names an
     * earlier offset), stored in the batch then; their keys are looked up by offset.
     */
    private static final class DistinctFiles {
        private final PackBatch batch;
        private long[] offsets = new long[1024];
        private ObjectKey[] keys = new ObjectKey[1024];
        private int count;

        DistinctFiles(PackBatch batch) {
            this.batch = batch;
        }

        ObjectKey key(FileChannel blob, long offset, int size) throws IOException {
            if (count == 0 || offset > offsets[count - 1]) {
                if (count == offsets.length) {
                    offsets = Arrays.copyOf(offsets, count * 2);
                    keys = Arrays.copyOf(keys, count * 2);
                }
                offsets[count] = offset;
                keys[count] = batch.add(read(blob, offset, size));
                return keys[count++];
            }
            int at = Arrays.binarySearch(offsets, 0, count, offset);
            if (at < 0) {
                throw new IllegalStateException("files.tsv names offset " + offset + ", where no file starts");
            }
            return keys[at];
        }
    }

    private static final String NODE_COPY = "COPY node (id, uuid, node_type, process_type, label, ctime, mtime,"
            + " user_id, attributes, repository_metadata) FROM STDIN";

    /** One COPY of text rows, sent 4 MB at a time. */
    private static final class Rows implements AutoCloseable {
        private final CopyIn copy;
        private final StringBuilder text = new StringBuilder(FLUSH_CHARS + 65536);

        Rows(Connection c, String sql) throws SQLException {
            this.copy = c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql);
        }

        void node(long id, String type, String processType, String label, long user, String attributes, String files)
                throws SQLException {
            text.append(id)
                    .append('\t')
                    .append(UUID.randomUUID())
                    .append('\t')
                    .append(type)
                    .append('\t')
                    .append(processType == null ? "\\N" : processType)
                    .append('\t')
                    .append(label)
                    .append("\tnow\tnow\t")
                    .append(user)
                    .append('\t');
            // COPY's text format takes a backslash as an escape: JSON's own escapes must go through doubled
            text.append(attributes.indexOf('\\') < 0 ? attributes : attributes.replace("\\", "\\\\"));
            text.append('\t').append(files).append('\n');
            flushIfFull();
        }

        void link(long input, long output, String type, String label) throws SQLException {
            text.append(input)
                    .append('\t')
                    .append(output)
                    .append('\t')
                    .append(type)
                    .append('\t')
                    .append(label)
                    .append('\n');
            flushIfFull();
        }

        private void flushIfFull() throws SQLException {
            if (text.length() >= FLUSH_CHARS) {
                flush();
            }
        }

        private void flush() throws SQLException {
            byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
            copy.writeToCopy(bytes, 0, bytes.length);
            text.setLength(0);
        }

        @Override
        public void close() throws SQLException {
            try {
                flush();
                copy.endCopy();
            } finally {
                if (copy.isActive()) {
                    copy.cancelCopy();
                }
            }
        }
    }
}
