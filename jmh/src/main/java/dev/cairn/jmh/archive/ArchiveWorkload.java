package dev.cairn.jmh.archive;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import dev.cairn.storage.db.JsonCodec;

/**
 * The shared workload of the archive comparison, as {@code jmh/archive-peer/gen_archive_workload.py}
 * writes it: structures as JSON lines, the trees' shape, one file per calc ({@code files.tsv} into
 * {@code files.bin}), and the counts an installation holds once it is loaded.
 */
record ArchiveWorkload(Path dir, Map<String, Object> meta, Map<String, Object> trees) {

    static ArchiveWorkload open(Path dir) throws IOException {
        Path meta = dir.resolve("workload.json");
        if (!Files.isRegularFile(meta)) {
            throw new IOException("no complete workload in " + dir + " (workload.json is written last)");
        }
        return new ArchiveWorkload(
                dir,
                JsonCodec.readObject(Files.readString(meta)),
                JsonCodec.readObject(Files.readString(dir.resolve("trees.json"))));
    }

    Path file(String name) {
        return dir.resolve(name);
    }

    String structureType() {
        return (String) meta.get("structure_node_type");
    }

    String structureLabel() {
        return (String) meta.get("structure_label");
    }

    long expected(String what) {
        return ((Number) ((Map<?, ?>) meta.get("expected")).get(what)).longValue();
    }

    int treeInt(String key) {
        return ((Number) trees.get(key)).intValue();
    }

    /** The node template of the trees' {@code root}, {@code calc} or {@code output}. */
    Map<?, ?> treeNode(String which) {
        return (Map<?, ?>) trees.get(which);
    }
}
