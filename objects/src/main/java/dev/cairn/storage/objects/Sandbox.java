package dev.cairn.storage.objects;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The folder of temporary files: every write lands here first, on the same filesystem as its target,
 * so the final move is an atomic rename. A file's name says which host and process made it, so leftovers
 * of a crashed process can be told apart from files that a live writer is still filling.
 */
final class Sandbox {

    static final String FOLDER = "sandbox";
    /** Files of another host (a shared filesystem) count as leftovers only after this long. */
    private static final Duration FOREIGN_HOST_GRACE = Duration.ofHours(24);

    private final Path dir;
    private final String host;
    private final String prefix;
    private final AtomicLong counter = new AtomicLong();

    Sandbox(Path containerRoot) {
        this.dir = containerRoot.resolve(FOLDER);
        this.host = hostName();
        this.prefix = host + "_" + ProcessHandle.current().pid() + "_";
    }

    Path dir() {
        return dir;
    }

    /** A new, uniquely named path; the caller creates the file (with CREATE_NEW: one system call). */
    Path newPath() {
        return dir.resolve(prefix + counter.incrementAndGet() + "_"
                + Long.toHexString(ThreadLocalRandom.current().nextLong()));
    }

    /**
     * Deletes the files of processes that no longer run (on this host) or that are older than a day
     * (other hosts). Returns how many were deleted.
     */
    int cleanLeftovers() throws IOException {
        int deleted = 0;
        Instant foreignCutoff = Instant.now().minus(FOREIGN_HOST_GRACE);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                if (isLeftover(file.getFileName().toString(), file, foreignCutoff)) {
                    try {
                        Files.delete(file);
                        deleted++;
                    } catch (NoSuchFileException e) {
                        // its writer finished or another cleaner was faster: nothing left to do
                    }
                }
            }
        }
        return deleted;
    }

    private boolean isLeftover(String name, Path file, Instant foreignCutoff) throws IOException {
        String[] parts = name.split("_");
        if (parts.length == 4 && parts[0].equals(host)) {
            try {
                long pid = Long.parseLong(parts[1]);
                if (pid == ProcessHandle.current().pid()) {
                    return false;
                }
                return ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
            } catch (NumberFormatException e) {
                return true;
            }
        }
        try {
            return Files.getLastModifiedTime(file).toInstant().isBefore(foreignCutoff);
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName().replace('_', '-');
        } catch (IOException e) {
            return "localhost";
        }
    }
}
