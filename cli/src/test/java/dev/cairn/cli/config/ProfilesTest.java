package dev.cairn.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.Target;

class ProfilesTest {

    @TempDir
    Path home;

    private final Map<String, String> env = new HashMap<>();

    private Profiles profiles() {
        env.put("CAIRN_CONFIG_DIR", home.resolve("config").toString());
        env.putIfAbsent("CAIRN_DATA_DIR", home.resolve("data").toString());
        return Profiles.ofUser(env);
    }

    @Test
    void theFirstProfileIsInUseAndItsTokenOnlyItsOwnerCanRead() throws Exception {
        Profiles profiles = profiles();
        profiles.add("lab", URI.create("https://cairn.lab.example"), "s3cret\n");
        profiles.add("laptop", URI.create("http://127.0.0.1:8080"), null);

        assertEquals(
                List.of("lab", "laptop"),
                profiles.list().stream().map(Profile::name).toList());
        assertEquals("lab", profiles.current().orElseThrow());
        Target target = profiles.resolve(null, null);
        assertEquals(URI.create("https://cairn.lab.example"), target.url());
        assertEquals("s3cret", target.token());

        Path token = home.resolve("config/tokens/lab");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(token)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(token.getParent())));
        assertFalse(
                Files.readString(home.resolve("config/profiles.json")).contains("s3cret"), "no token in the config");
    }

    @Test
    void optionsThenEnvironmentThenTheProfileDecide() {
        Profiles profiles = profiles();
        profiles.add("lab", URI.create("https://cairn.lab.example"), "lab-token");
        profiles.add("other", URI.create("https://other.example"), "other-token");

        assertEquals("other-token", profiles.resolve("other", null).token());
        env.put("CAIRN_PROFILE", "other");
        assertEquals(
                URI.create("https://other.example"),
                profiles().resolve(null, null).url());
        env.put("CAIRN_URL", "http://elsewhere:9000");
        env.put("CAIRN_TOKEN", "env-token");
        Target fromEnv = profiles().resolve(null, null);
        assertEquals(URI.create("http://elsewhere:9000"), fromEnv.url());
        assertEquals("env-token", fromEnv.token());
        assertEquals(
                URI.create("http://flag:1"),
                profiles().resolve(null, URI.create("http://flag:1")).url());
    }

    @Test
    void withNoProfileTheLocalServerAndItsAdminTokenAreUsed() throws Exception {
        Profiles profiles = profiles();
        assertEquals(Profiles.LOCAL_URL, profiles.resolve(null, null).url());
        assertNull(profiles.resolve(null, null).token());
        Files.createDirectories(home.resolve("data"));
        Files.writeString(home.resolve("data/admin-token"), "local-admin\n");
        Target local = profiles.resolve(null, null);
        assertEquals("local-admin", local.token());
        env.put("CAIRN_PORT", "18600");
        assertEquals(
                URI.create("http://127.0.0.1:18600"),
                profiles().resolve(null, null).url(),
                "as cairn up");
        env.put("CAIRN_PORT", "eighty");
        assertThrows(CliException.class, () -> profiles().resolve(null, null));
        assertTrue(local.from().contains("admin-token"), local.from());
    }

    @Test
    void theDataDirectoryAloneFindsItsServerOnThePortItsStartRecorded() throws Exception {
        Path data = home.resolve("elsewhere");
        env.put("CAIRN_DATA_DIR", data.toString());
        Files.createDirectories(data);
        Files.writeString(data.resolve("admin-token"), "its-admin\n");
        Files.writeString(data.resolve("server.url"), "http://127.0.0.1:8093\n");

        Target target = profiles().resolve(null, null);

        assertEquals(URI.create("http://127.0.0.1:8093"), target.url(), "cairn up --port 8093 --data-dir DIR");
        assertEquals("its-admin", target.token());
        env.put("CAIRN_PORT", "18601");
        assertEquals(
                URI.create("http://127.0.0.1:18601"),
                profiles().resolve(null, null).url(),
                "CAIRN_PORT first");
        env.remove("CAIRN_PORT");
        Files.writeString(data.resolve("server.url"), "not a url at all\n");
        assertEquals(Profiles.LOCAL_URL, profiles().resolve(null, null).url(), "a broken file: the default port");
    }

    @Test
    void anUnknownProfileABadNameAndABrokenFileAreClearErrors() throws Exception {
        Profiles profiles = profiles();
        profiles.add("lab", URI.create("https://cairn.lab.example"), null);
        CliException unknown = assertThrows(CliException.class, () -> profiles.resolve("labb", null));
        assertEquals(ExitCodes.USAGE, unknown.exitCode());
        assertTrue(unknown.getMessage().contains("no profile 'labb'")
                && unknown.getMessage().contains("lab"));
        assertThrows(CliException.class, () -> profiles.add("../x", URI.create("http://a"), null));
        assertThrows(CliException.class, () -> Profiles.parseUrl("ftp://a", "--url"));

        Files.writeString(home.resolve("config/profiles.json"), "{\"profiles\": ");
        CliException broken = assertThrows(CliException.class, profiles::list);
        assertTrue(broken.getMessage().contains("profiles.json"), broken.getMessage());
    }

    @Test
    void removingTheProfileInUseLeavesNoneInUseAndDeletesItsToken() {
        Profiles profiles = profiles();
        profiles.add("lab", URI.create("https://cairn.lab.example"), "t");
        profiles.remove("lab");
        assertTrue(profiles.list().isEmpty());
        assertTrue(profiles.current().isEmpty());
        assertFalse(Files.exists(home.resolve("config/tokens/lab")));
    }
}
