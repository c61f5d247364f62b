package dev.cairn.cli.local;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
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

    /** The URL the server of {@code dataDir} recorded at its start, while it runs. */
    public static Optional<URI> read(Path dataDir) {
        Path file = dataDir.resolve(FILE);
        try {
            if (!Files.isRegularFile(file)) {
                return Optional.empty();
            }
            URI url = new URI(Files.readString(file, StandardCharsets.UTF_8).strip());
            return "http".equals(url.getScheme()) && url.getHost() != null ? Optional.of(url) : Optional.empty();
        } catch (IOException | URISyntaxException e) {
            return Optional.empty(); // half written or not ours: as if there were none
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
