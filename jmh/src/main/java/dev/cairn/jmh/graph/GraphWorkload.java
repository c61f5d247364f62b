package dev.cairn.jmh.graph;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.cairn.storage.db.JsonCodec;

/**
 * The shared workload of the graph comparison, as {@code jmh/graph-peer/gen_graph_workload.py}
 * writes it: structures as JSON lines, the tree shape, and the counts each phase must return.
 */
record GraphWorkload(Path dir, Map<String, Object> meta, Map<String, Object> trees) {

    static GraphWorkload open(Path dir) throws IOException {
        Path meta = dir.resolve("workload.json");
        if (!Files.isRegularFile(meta)) {
            throw new IOException("no complete workload in " + dir + " (workload.json is written last)");
        }
        return new GraphWorkload(
                dir,
                JsonCodec.readObject(Files.readString(meta)),
                JsonCodec.readObject(Files.readString(dir.resolve("trees.json"))));
    }

    /** Structures of a JSON-lines file, {@code size} at a time. */
    void forEachBatch(String file, int size, BatchConsumer each) throws Exception {
        try (BufferedReader in = Files.newBufferedReader(dir.resolve(file))) {
            List<Map<String, Object>> batch = new ArrayList<>(Math.min(size, 10_000));
            String line;
            while ((line = in.readLine()) != null) {
                batch.add(JsonCodec.readObject(line));
                if (batch.size() == size) {
                    each.accept(batch);
                    batch = new ArrayList<>(Math.min(size, 10_000));
                }
            }
            if (!batch.isEmpty()) {
                each.accept(batch);
            }
        }
    }

    interface BatchConsumer {
        void accept(List<Map<String, Object>> batch) throws Exception;
    }

    String label(String which) {
        return (String) ((Map<?, ?>) meta.get("labels")).get(which);
    }

    /** A shape stored one at a time besides structures ({@code files}, {@code processes}). */
    Map<?, ?> shape(String which) {
        return (Map<?, ?>) ((Map<?, ?>) meta.get("shapes")).get(which);
    }

    int bulkBatch() {
        return ((Number) meta.get("bulk_batch")).intValue();
    }

    Map<?, ?> queries() {
        return (Map<?, ?>) meta.get("queries");
    }

    long expected(String phase) {
        return ((Number) ((Map<?, ?>) meta.get("expected_counts")).get(phase)).longValue();
    }

    int treeInt(String key) {
        return ((Number) trees.get(key)).intValue();
    }

    List<Integer> chosenRoots() {
        return ((List<?>) trees.get("chosen_root_indices"))
                .stream().map(o -> ((Number) o).intValue()).toList();
    }
}
