package dev.cairn.storage.archive.aiida;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** The temporary folders of the readers and writers, made and removed whole. */
final class Scratch {

    private Scratch() {}

    /** A new folder under {@code parent} (the system's temporary folder if null). */
    static Path create(Path parent, String prefix) throws IOException {
        return parent == null ? Files.createTempDirectory(prefix) : Files.createTempDirectory(parent, prefix);
    }

    /** Deletes {@code folder} and everything in it; nothing there is kept. */
    static void delete(Path folder) throws IOException {
        if (!Files.exists(folder)) {
            return;
        }
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(folder)) {
            paths = walk.sorted(Comparator.reverseOrder()).toList();
        }
        for (Path p : paths) {
            Files.deleteIfExists(p);
        }
    }
}
