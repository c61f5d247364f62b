package dev.cairn.cli.config;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.client.Target;
import dev.cairn.cli.local.ServerUrl;

/**
 * The profiles in the user's config directory ({@code $CAIRN_CONFIG_DIR}, else
 * {@code $XDG_CONFIG_HOME/cairn}, else {@code ~/.config/cairn}): {@code profiles.json} holds each
 * profile's URL and which one is in use; each token is a file of its own under {@code tokens/} that
 * only its owner can read (the directory too). Every write goes to a temporary file renamed over the
 * old one, so a crash leaves the old file or the new, never half of one.
 */
public final class Profiles {

    /** Where a server with no profile is looked for: the one {@code cairn up} starts. */
    public static final URI LOCAL_URL = URI.create("http://127.0.0.1:8080");

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final boolean POSIX =
            FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private final Path dir;
    private final Map<String, String> env;

    public Profiles(Path dir, Map<String, String> env) {
        this.dir = dir;
        this.env = env;
    }

    /** The profiles of this user, where the environment says they are. */
    public static Profiles ofUser(Map<String, String> env) {
        return new Profiles(configDir(env), env);
    }

    static Path configDir(Map<String, String> env) {
        if (env.get("CAIRN_CONFIG_DIR") != null) {
            return Path.of(env.get("CAIRN_CONFIG_DIR"));
        }
        String xdg = env.get("XDG_CONFIG_HOME");
        Path base = xdg != null && !xdg.isEmpty() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".config");
        return base.resolve("cairn");
    }

    public Path dir() {
        return dir;
    }

    public List<Profile> list() {
        List<Profile> profiles = new ArrayList<>();
        JsonNode all = read().path("profiles");
        for (String name : all.propertyNames()) {
            profiles.add(profile(name, all.get(name)));
        }
        profiles.sort((a, b) -> a.name().compareTo(b.name()));
        return profiles;
    }

    /** The profile in use: {@code CAIRN_PROFILE}, else the one {@code profile use} chose. */
    public Optional<String> current() {
        return current(read());
    }

    private Optional<String> current(JsonNode config) {
        String fromEnv = env.get("CAIRN_PROFILE");
        if (fromEnv != null && !fromEnv.isEmpty()) {
            return Optional.of(fromEnv);
        }
        return Optional.ofNullable(JsonTrees.text(config, "current", null));
    }

    public Optional<Profile> get(String name) {
        return get(read(), name);
    }

    private Optional<Profile> get(JsonNode config, String name) {
        JsonNode entry = config.path("profiles").get(name);
        return entry == null ? Optional.empty() : Optional.of(profile(name, entry));
    }

    /**
     * Adds or replaces a profile; the first one added becomes the one in use.
     *
     * @param token the token to keep, or null to keep none (or the one kept before, on a replace)
     */
    public Profile add(String name, URI url, String token) {
        checkName(name);
        ObjectNode config = read();
        ObjectNode profiles =
                config.has("profiles") ? (ObjectNode) config.get("profiles") : config.putObject("profiles");
        profiles.putObject(name).put("url", url.toString());
        if (!config.has("current")) {
            config.put("current", name);
        }
        if (token != null) {
            writePrivate(tokenFile(name), token.strip());
        }
        write(config);
        return get(name).orElseThrow();
    }

    public void use(String name) {
        ObjectNode config = read();
        if (!config.path("profiles").has(name)) {
            throw unknown(name);
        }
        config.put("current", name);
        write(config);
    }

    /** Removes a profile and its token; no profile is in use after removing the one that was. */
    public void remove(String name) {
        ObjectNode config = read();
        if (!config.path("profiles").has(name)) {
            throw unknown(name);
        }
        ((ObjectNode) config.get("profiles")).remove(name);
        if (name.equals(JsonTrees.text(config, "current", null))) {
            config.remove("current");
        }
        write(config);
        try {
            Files.deleteIfExists(tokenFile(name));
        } catch (IOException e) {
            throw new CliException(ExitCodes.FAILED, "cannot delete " + tokenFile(name) + ": " + e.getMessage(), null);
        }
    }

    /**
     * The server and token a command uses. The URL: {@code --url}, else {@code CAIRN_URL}, else the
     * profile's ({@code --profile}, else the one in use), else the local server. The token:
     * {@code CAIRN_TOKEN}, else the profile's, else, with no profile, the local server's admin token
     * in its data directory ({@code $CAIRN_DATA_DIR}, else {@code ~/.cairn}) when this user can read it.
     */
    public Target resolve(String profileOption, URI urlOption) {
        // one read of the config file: every command passes here
        ObjectNode config = read();
        String name = profileOption != null ? profileOption : current(config).orElse(null);
        Profile profile = null;
        if (name != null) {
            profile = get(config, name).orElseThrow(() -> unknown(name));
        }
        URI url;
        String from;
        if (urlOption != null) {
            url = urlOption;
            from = "--url";
        } else if (env.get("CAIRN_URL") != null && !env.get("CAIRN_URL").isEmpty()) {
            url = parseUrl(env.get("CAIRN_URL"), "CAIRN_URL");
            from = "CAIRN_URL";
        } else if (profile != null) {
            url = profile.url();
            from = "profile '" + profile.name() + "'";
        } else {
            url = localUrl();
            from = "no profile: the local server";
        }
        String token = env.get("CAIRN_TOKEN");
        if (token != null && !token.isEmpty()) {
            return new Target(url, token.strip(), from + ", token from CAIRN_TOKEN");
        }
        if (profile != null) {
            return new Target(url, readToken(tokenFile(profile.name())), from);
        }
        Path local = localDataDir().resolve("admin-token");
        String localToken = Files.isReadable(local) ? readToken(local) : null;
        return new Target(url, localToken, localToken == null ? from : from + ", its admin token in " + local);
    }

    /**
     * The server {@code cairn up} starts on this host: on {@code $CAIRN_PORT} when set, as it is there; else at
     * the URL its start recorded in the data directory ({@code server.url}: {@code cairn up --port 8093} is
     * found with no more than its data directory); else on port 8080.
     */
    public URI localUrl() {
        String port = env.get("CAIRN_PORT");
        if (port == null || port.isBlank()) {
            return ServerUrl.read(localDataDir()).orElse(LOCAL_URL);
        }
        if (!port.strip().matches("[0-9]{1,5}")) {
            throw CliException.usage("CAIRN_PORT: '" + port + "' is not a port number");
        }
        return URI.create("http://127.0.0.1:" + port.strip());
    }

    /** The data directory of the server on this host, as {@code cairn up} uses it. */
    public Path localDataDir() {
        String dataDir = env.get("CAIRN_DATA_DIR");
        return dataDir != null && !dataDir.isEmpty()
                ? Path.of(dataDir)
                : Path.of(System.getProperty("user.home"), ".cairn");
    }

    public static URI parseUrl(String text, String what) {
        try {
            URI url = new URI(text);
            if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme()) || url.getHost() == null) {
                throw CliException.usage(what + ": '" + text + "' is not an http(s) URL such as http://host:8080");
            }
            return url;
        } catch (URISyntaxException e) {
            throw CliException.usage(what + ": '" + text + "' is not a URL: " + e.getReason());
        }
    }

    private Profile profile(String name, JsonNode entry) {
        return new Profile(
                name, URI.create(JsonTrees.text(entry, "url", LOCAL_URL.toString())), Files.exists(tokenFile(name)));
    }

    private Path tokenFile(String name) {
        return dir.resolve("tokens").resolve(name);
    }

    private Path configFile() {
        return dir.resolve("profiles.json");
    }

    private static String readToken(Path file) {
        try {
            String token = Files.readString(file, StandardCharsets.UTF_8).strip();
            return token.isEmpty() ? null : token;
        } catch (IOException e) {
            return null;
        }
    }

    private ObjectNode read() {
        Path file = configFile();
        if (!Files.exists(file)) {
            return JsonTrees.object();
        }
        try {
            JsonNode config = JsonTrees.parse(Files.readString(file, StandardCharsets.UTF_8));
            if (!config.isObject()) {
                throw new CliException(ExitCodes.USAGE, file + " is not a JSON object", "fix or delete it");
            }
            return (ObjectNode) config;
        } catch (IOException | JacksonException e) {
            throw new CliException(ExitCodes.USAGE, "cannot read " + file + ": " + e.getMessage(), "fix or delete it");
        }
    }

    private void write(ObjectNode config) {
        writePrivate(configFile(), JsonTrees.pretty(config) + "\n");
    }

    /** Writes a file only its owner can read, in a directory only its owner can enter, atomically. */
    private static void writePrivate(Path file, String content) {
        try {
            createPrivateDirectories(file.getParent());
            Path temporary = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".tmp");
            try {
                Files.writeString(temporary, content, StandardCharsets.UTF_8);
                try {
                    Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(temporary);
            }
        } catch (IOException e) {
            throw new CliException(ExitCodes.FAILED, "cannot write " + file + ": " + e.getMessage(), null);
        }
    }

    /** Files.createTempFile makes its files rw------- on POSIX already; directories need asking. */
    private static void createPrivateDirectories(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        createPrivateDirectories(dir.getParent());
        if (POSIX) {
            Files.createDirectory(
                    dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } else {
            Files.createDirectory(dir);
        }
    }

    private static void checkName(String name) {
        if (!NAME.matcher(name).matches()) {
            throw CliException.usage("profile name '" + name + "': use letters, digits, '.', '_' and '-' (at most 64)");
        }
    }

    private CliException unknown(String name) {
        List<String> names = list().stream().map(Profile::name).toList();
        return new CliException(
                ExitCodes.USAGE,
                "no profile '" + name + "'" + (names.isEmpty() ? "" : " (there are: " + String.join(", ", names) + ")"),
                "add it with `cairn profile add " + name + " --server URL --token-file FILE`");
    }
}
