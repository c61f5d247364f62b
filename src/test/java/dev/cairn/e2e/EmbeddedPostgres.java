package dev.cairn.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The embedded PostgreSQL of a server's data directory, as its cluster's {@code postmaster.pid}
 * describes it: the pid on the first line, the port on the fourth. The file exists while the
 * server runs and is gone once PostgreSQL stopped cleanly.
 */
record EmbeddedPostgres(long pid, int port) {

    static Path pidFile(Path dataDir) {
        return dataDir.resolve("postgres").resolve("cluster").resolve("postmaster.pid");
    }

    static Optional<EmbeddedPostgres> of(Path dataDir) {
        try {
            List<String> lines = Files.readAllLines(pidFile(dataDir));
            return Optional.of(new EmbeddedPostgres(
                    Long.parseLong(lines.get(0).strip()),
                    Integer.parseInt(lines.get(3).strip())));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Cairn's database on it, as the superuser (trusted on loopback). */
    String jdbcUrl() {
        return "jdbc:postgresql://localhost:" + port + "/cairn?user=postgres";
    }

    boolean isAlive() {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
