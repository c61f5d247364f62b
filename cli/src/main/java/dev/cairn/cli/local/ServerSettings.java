package dev.cairn.cli.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;

/**
 * The server settings a command passes through ({@code --cairn.x=y}, as {@code docs/reference/settings.md}
 * lists them), the ones {@code cairn server start} keeps for the workers and {@code cairn db migrate}
 * of the same data directory ({@code server.settings}, readable by this user only, as it may hold a
 * password), the settings of the embedded services a running server publishes for them
 * ({@code services.settings}), and the environment the server JVMs get.
 */
public final class ServerSettings {

    /** The settings file's line that says the server runs its own database and broker. */
    public static final String EMBEDDED = "# embedded";

    private static final Pattern SETTING = Pattern.compile("--[A-Za-z][A-Za-z0-9._\\[\\]-]*=.*");
    /** Variables of this command line, not of the server. */
    private static final List<String> CLI_ONLY = List.of(
            "CAIRN_URL",
            "CAIRN_TOKEN",
            "CAIRN_PROFILE",
            "CAIRN_CONFIG_DIR",
            "CAIRN_SERVER_JAR",
            "CAIRN_AOT",
            "CAIRN_JAVA_OPTS",
            "CAIRN_SERVER_JAVA_OPTS");

    private ServerSettings() {}

    /**
     * The settings among a command's extra arguments; anything else, and the settings that have an
     * option of their own ({@code --data-dir}, {@code --port}), is a usage error naming it.
     */
    public static List<String> parse(List<String> extra, String command) {
        List<String> settings = new ArrayList<>();
        for (String arg : extra == null ? List.<String>of() : extra) {
            if (!SETTING.matcher(arg).matches()) {
                throw CliException.usage("'" + arg + "' is neither an option of `" + command
                        + "` nor a server setting such as --cairn.worker.slots=8 (see --help)");
            }
            if (arg.startsWith("--cairn.data-dir=")) {
                throw CliException.usage("give the data directory with --data-dir, not " + arg);
            }
            if (arg.startsWith("--server.port=")) {
                throw CliException.usage("give the port with --port, not " + arg);
            }
            settings.add(arg);
        }
        return settings;
    }

    /** True when a setting {@code key} is among {@code settings} or its variable is set. */
    public static boolean given(List<String> settings, Map<String, String> env, String key, String variable) {
        String value = env.get(variable);
        return settings.stream().anyMatch(s -> s.startsWith("--" + key + "=") && s.length() > key.length() + 3)
                || value != null && !value.isBlank();
    }

    /** The environment of a server JVM: this one's, without the command line's own variables. */
    public static Map<String, String> environment(Map<String, String> env) {
        Map<String, String> server = new HashMap<>(env);
        CLI_ONLY.forEach(server::remove);
        return server;
    }

    /** Keeps the settings a server was started with, for its workers and migrations. */
    public static void save(Path dataDir, List<String> settings, boolean embedded) {
        Path file = dataDir.resolve("server.settings");
        List<String> lines = new ArrayList<>();
        if (embedded) {
            lines.add(EMBEDDED);
        }
        lines.addAll(settings);
        try {
            Files.deleteIfExists(file);
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                Files.createFile(
                        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            Files.write(file, lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The settings the last {@code cairn server start} of {@code dataDir} kept, if it kept any. */
    public static List<String> saved(Path dataDir) {
        Path file = dataDir.resolve("server.settings");
        try {
            return Files.isRegularFile(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The settings of the embedded database and broker that the running server of {@code dataDir}
     * published for the workers of this host ({@code services.settings}, owner-only, written by the
     * server once they are up and deleted when they stop); empty when no embedded services run there.
     */
    public static Optional<List<String>> published(Path dataDir) {
        Path file = dataDir.resolve("services.settings");
        try {
            return Files.isRegularFile(file)
                    ? Optional.of(Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                            .filter(SETTING.asPredicate())
                            .toList())
                    : Optional.empty();
        } catch (IOException e) {
            throw new CliException(
                    ExitCodes.FAILED,
                    "cannot read " + file + ": " + e.getMessage(),
                    "it is the server's user's alone: run this as that user");
        }
    }

    /** Whether the server of {@code dataDir} runs, or was last started, with its own database and broker. */
    public static boolean embedded(Path dataDir) {
        return saved(dataDir).contains(EMBEDDED) || published(dataDir).isPresent();
    }

    /**
     * {@code settings} with those of {@code overrides} in place of the ones of the same key: the server
     * would join two values of one key into a list.
     */
    public static List<String> overriding(List<String> settings, List<String> overrides) {
        List<String> keys =
                overrides.stream().map(s -> s.substring(0, s.indexOf('=') + 1)).toList();
        List<String> merged = new ArrayList<>(settings.stream()
                .filter(s -> keys.stream().noneMatch(s::startsWith))
                .toList());
        merged.addAll(overrides);
        return merged;
    }

    /** Refuses a port another program listens on, before a server JVM fails on it after seconds. */
    public static void checkPortFree(int port) {
        if (port < 1 || port > 65535) {
            throw CliException.usage("--port: " + port + " is not a TCP port (1-65535)");
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true); // as the server binds: a port in TIME_WAIT is free
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
        } catch (IOException e) {
            throw new CliException(
                    ExitCodes.CONFLICT,
                    "port " + port + " is in use (another server?)",
                    "choose another with --port, or see what runs: `cairn status`");
        }
    }

    /** The port: the one given, else $CAIRN_PORT, else 8080. */
    public static int port(Integer option, Map<String, String> env) {
        if (option != null) {
            return option;
        }
        String variable = env.get("CAIRN_PORT");
        if (variable != null && !variable.isBlank()) {
            try {
                return Integer.parseInt(variable.strip());
            } catch (NumberFormatException e) {
                throw CliException.usage("CAIRN_PORT: '" + variable + "' is not a port number");
            }
        }
        return 8080;
    }
}
