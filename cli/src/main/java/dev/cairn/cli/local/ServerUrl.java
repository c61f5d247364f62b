package dev.cairn.cli.local;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;

/** {@code server.url} in a data directory: the URL of the server that runs there, as its start wrote it. */
public final class ServerUrl {

    private static final String FILE = "server.url";

    private ServerUrl() {}

    public static Optional<URI> read(Path dataDir) {
        Path file = dataDir.resolve(FILE);
        try {
            return Files.isRegularFile(file)
                    ? Optional.of(URI.create(
                            Files.readString(file, StandardCharsets.UTF_8).strip()))
                    : Optional.empty();
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    public static void write(Path dataDir, URI url) {
        try {
            Files.writeString(dataDir.resolve(FILE), url + "\n", StandardCharsets.UTF_8);
        } catch (Exception e) {
            throw new CliException(ExitCodes.FAILED, "cannot write " + dataDir.resolve(FILE), null, e);
        }
    }

    public static void forget(Path dataDir) {
        try {
            Files.deleteIfExists(dataDir.resolve(FILE));
        } catch (Exception e) {
            // found stale next time: the pid file decides whether a server runs
        }
    }
}
