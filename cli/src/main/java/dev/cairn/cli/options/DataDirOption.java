package dev.cairn.cli.options;

import java.nio.file.Path;
import java.util.List;

import picocli.CommandLine.Option;

/**
 * {@code --data-dir}: the data directory of the server on this host, where its pid and log files,
 * its embedded services, object store and admin token live.
 */
public final class DataDirOption {

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description = "The server's data directory (default: $CAIRN_DATA_DIR, else ~/.cairn).")
    private Path dataDir;

    /** The directory given, else the one commands with no profile look in; absolute. */
    public Path dataDir(Session session) {
        Path dir = dataDir != null
                ? session.workingDirectory().resolve(dataDir)
                : session.profiles().localDataDir();
        return dir.toAbsolutePath().normalize();
    }

    /** True when the directory is the one commands with no profile find on their own. */
    public boolean isDefault(Session session) {
        return dataDir(session)
                .equals(session.profiles().localDataDir().toAbsolutePath().normalize());
    }

    /**
     * What to type in another terminal when the data directory is not the default one: the commands find the
     * server's URL (its port too) in its data directory ({@code server.url}).
     */
    public List<String> exports(Session session) {
        return isDefault(session) ? List.of() : List.of("CAIRN_DATA_DIR=" + dataDir(session));
    }
}
