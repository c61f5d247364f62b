package dev.cairn.api.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code <data-dir>/services.settings}: how workers of this host reach the embedded database and
 * broker of the running server, as the settings they are started with ({@code --cairn.database.url=...},
 * {@code --cairn.broker.uri=...}, the form of {@code server.settings}). The embedded services move to
 * new ports, with a new broker password, at every start, so the server publishes them while they run
 * and deletes the file when they stop; {@code cairn worker start} reads it.
 */
public final class ServicesFile {

    /** The file's name in the data directory. */
    public static final String NAME = "services.settings";

    private static final Logger LOG = LoggerFactory.getLogger(ServicesFile.class);

    private final Path file;

    private ServicesFile(Path file) {
        this.file = file;
    }

    /**
     * Publishes the embedded services' settings; {@code databaseUrl} or {@code brokerUri} is null when
     * that service is an external one (its setting is the server's own, which the workers have already).
     */
    public static ServicesFile write(Path dataDir, String databaseUrl, String brokerUri) {
        List<String> lines = new ArrayList<>();
        lines.add("# the embedded services of the server of pid "
                + ProcessHandle.current().pid() + "; deleted when they stop");
        if (databaseUrl != null) {
            lines.add("--cairn.database.url=" + databaseUrl);
        }
        if (brokerUri != null) {
            lines.add("--cairn.broker.uri=" + brokerUri);
        }
        Path file = dataDir.toAbsolutePath().resolve(NAME);
        Path temp = null;
        try {
            Files.createDirectories(file.getParent());
            // the broker's password is in it: the file is this user's alone from its first byte, so it
            // is made with its mode rather than narrowed after the write
            temp = FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                    ? Files.createTempFile(
                            file.getParent(),
                            NAME,
                            ".tmp",
                            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                    : Files.createTempFile(file.getParent(), NAME, ".tmp");
            Files.write(temp, lines, StandardCharsets.UTF_8);
            // a worker starting meanwhile reads the old whole file or the new whole file, never half of one
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            temp = null;
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + file, e);
        } finally {
            deleteQuietly(temp);
        }
        LOG.info("workers of this host find the embedded services in {}", file);
        return new ServicesFile(file);
    }

    public Path path() {
        return file;
    }

    /** Removes the file: the services it names stop now. */
    public void delete() {
        deleteQuietly(file);
    }

    private static void deleteQuietly(Path path) {
        if (path == null) {
            return;
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // a stale file names ports nothing listens on; the next start replaces it
            LOG.warn("cannot delete {}: {}", path, e.getMessage());
        }
    }
}
