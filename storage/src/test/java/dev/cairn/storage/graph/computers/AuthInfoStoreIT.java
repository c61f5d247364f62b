package dev.cairn.storage.graph.computers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.users.User;
import dev.cairn.storage.graph.users.UserStore;
import dev.cairn.storage.testing.TestDatabase;

class AuthInfoStoreIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;
    static AuthInfoStore authInfos;
    static UserStore users;
    static ComputerStore computers;

    @BeforeAll
    static void open() {
        database = Database.open(DatabaseConfig.of(db.jdbcUrl()));
        authInfos = new AuthInfoStore(database);
        users = new UserStore(database);
        computers = new ComputerStore(database);
    }

    @AfterAll
    static void close() {
        database.close();
    }

    private static User user() {
        return users.create(UUID.randomUUID() + "@example.com", "", "", "");
    }

    private static Computer computer() {
        return computers.create(
                ComputerSpec.of("c-" + UUID.randomUUID(), "host.example.org", "core.ssh", "core.slurm"));
    }

    @Test
    void eachUserHasItsOwnParametersOnAComputer() {
        User ada = user(), bob = user();
        Computer c = computer();
        AuthInfo adas = authInfos.create(ada.id(), c.id(), Map.of("username", "ada", "port", 22L));
        AuthInfo bobs = authInfos.create(bob.id(), c.id(), Map.of("username", "bob", "proxy_jump", "gate"));
        assertTrue(adas.enabled());
        assertEquals(Optional.of(adas), authInfos.find(ada.id(), c.id()));
        assertEquals("bob", authInfos.get(bob.id(), c.id()).authParams().get("username"));
        assertEquals(List.of(adas, bobs), authInfos.forComputer(c.id()));
    }

    @Test
    void parametersAndTheEnabledFlagChange() {
        User u = user();
        Computer c = computer();
        authInfos.create(u.id(), c.id(), Map.of("username", "old"));
        authInfos.setAuthParams(u.id(), c.id(), Map.of("username", "new", "look_for_keys", true));
        authInfos.setMetadata(u.id(), c.id(), Map.of("last_job_info_check", "2024-01-01"));
        AuthInfo disabled = authInfos.setEnabled(u.id(), c.id(), false);
        assertFalse(disabled.enabled());
        assertEquals(Map.of("username", "new", "look_for_keys", true), disabled.authParams());
        assertEquals(disabled, authInfos.get(u.id(), c.id()));
        assertEquals(Map.of("last_job_info_check", "2024-01-01"), disabled.metadata());
    }

    @Test
    void onePerUserAndComputer() {
        User u = user();
        Computer c = computer();
        authInfos.create(u.id(), c.id(), Map.of());
        ConflictException e = assertThrows(ConflictException.class, () -> authInfos.create(u.id(), c.id(), Map.of()));
        assertEquals(
                "user " + u.id() + " has an authinfo for computer " + c.id()
                        + " already; change its parameters instead",
                e.getMessage());
    }

    @Test
    void missingUsersComputersAndPairsAreNamed() {
        User u = user();
        Computer c = computer();
        assertEquals(
                "authinfo: user 999999 does not exist",
                assertThrows(NotFoundException.class, () -> authInfos.create(999999, c.id(), Map.of()))
                        .getMessage());
        assertEquals(
                "authinfo: computer 999999 does not exist",
                assertThrows(NotFoundException.class, () -> authInfos.create(u.id(), 999999, Map.of()))
                        .getMessage());
        assertEquals(
                "user " + u.id() + " has no authinfo for computer " + c.id(),
                assertThrows(NotFoundException.class, () -> authInfos.setEnabled(u.id(), c.id(), true))
                        .getMessage());
    }

    @Test
    void deletingTheAuthinfoOrItsComputerRemovesIt() {
        User u = user();
        Computer c = computer(), d = computer();
        authInfos.create(u.id(), c.id(), Map.of());
        authInfos.create(u.id(), d.id(), Map.of());
        authInfos.delete(u.id(), c.id());
        assertEquals(Optional.empty(), authInfos.find(u.id(), c.id()));
        assertThrows(NotFoundException.class, () -> authInfos.delete(u.id(), c.id()));
        computers.delete(d.id());
        assertEquals(Optional.empty(), authInfos.find(u.id(), d.id()));
    }
}
