package dev.cairn.cli.commands;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;

/** The server jar the launcher runs for work that needs the database (restore). */
final class ServerJar {

    private ServerJar() {}

    /** $CAIRN_SERVER_JAR, or beside the launcher's home (an installation, or the build's tree). */
    static Path find(Map<String, String> env) {
        List<Path> tried = new ArrayList<>();
        String configured = env.get("CAIRN_SERVER_JAR");
        if (configured != null && !configured.isBlank()) {
            Path p = Path.of(configured);
            if (Files.isRegularFile(p)) {
                return p;
            }
            throw new CliException(ExitCodes.NOT_FOUND, "CAIRN_SERVER_JAR names " + p + ", which is not a file", null);
        }
        String home = System.getProperty("cairn.home");
        if (home != null) {
            Path h = Path.of(home).toAbsolutePath().normalize();
            tried.add(h.resolve("server/cairn-server.jar"));
            tried.add(h.resolve("../../../api/target/cairn-server.jar").normalize());
        }
        for (Path p : tried) {
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        throw new CliException(
                ExitCodes.NOT_FOUND, "cannot find the server jar (tried " + tried + ")", "set CAIRN_SERVER_JAR");
    }

    /** The line of a failed server's output that says why. */
    static String failure(List<String> log) {
        for (int i = log.size() - 1; i >= 0; i--) {
            String line = log.get(i);
            int at = line.indexOf("Exception: ");
            if (at >= 0) {
                return line.substring(at + "Exception: ".length()).strip();
            }
        }
        return "the restore failed" + (log.isEmpty() ? "" : ": " + log.getLast());
    }
}
