package dev.cairn.storage.objects;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** fsync of files and directories: what makes a rename or a new file survive a power cut. */
final class Durability {

    private Durability() {}

    static void fsync(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }

    /** Persists the entries of a directory (a created or renamed file in it). Linux allows fsync on a
     * directory opened for reading. */
    static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}
