package dev.cairn.storage.graph.users;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.testing.TestDatabase;

class UserStoreIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;
    static UserStore users;

    @BeforeAll
    static void open() {
        database = Database.open(DatabaseConfig.of(db.jdbcUrl()));
        users = new UserStore(database);
    }

    @AfterAll
    static void close() {
        database.close();
    }

    @Test
    void createdUsersAreFoundByEmailAndId() {
        User ada = users.create("ada@example.com", "Ada", "Lovelace", "Analytical Engines");
        assertEquals(Optional.of(ada), users.findByEmail("ada@example.com"));
        assertEquals(ada, users.get(ada.id()));
        assertEquals(Optional.empty(), users.findByEmail("nobody@example.com"));
        assertTrue(users.list().contains(ada));
    }

    @Test
    void aSecondUserWithTheSameEmailIsRefused() {
        users.create("twice@example.com", "", "", "");
        ConflictException e =
                assertThrows(ConflictException.class, () -> users.create("twice@example.com", "B", "", ""));
        assertEquals("a user with email 'twice@example.com' exists already", e.getMessage());
    }

    @Test
    void anEmailMustLookLikeOne() {
        InvalidInputException e =
                assertThrows(InvalidInputException.class, () -> users.create("Ada Lovelace", "", "", ""));
        assertEquals("user email 'Ada Lovelace' is not an email address (name@host, no spaces)", e.getMessage());
        assertThrows(InvalidInputException.class, () -> users.create(null, "", "", ""));
    }

    @Test
    void aMissingUserIsNamed() {
        NotFoundException e = assertThrows(NotFoundException.class, () -> users.get(987654));
        assertEquals("user 987654 does not exist", e.getMessage());
    }

    @Test
    void theDefaultUserIsKeptInTheSettingsAndCanChange() {
        User first = users.create("first@example.com", "F", "", "");
        User second = users.create("second@example.com", "S", "", "");
        users.setDefault(first.email());
        assertEquals(Optional.of(first), users.defaultUser());
        users.setDefault(second.email());
        assertEquals(Optional.of(second), users.defaultUser());
        NotFoundException e = assertThrows(NotFoundException.class, () -> users.setDefault("ghost@example.com"));
        assertTrue(e.getMessage().startsWith("no user has email 'ghost@example.com'"), e.getMessage());
        assertEquals(Optional.of(second), users.defaultUser());
        assertEquals(
                "\"second@example.com\"",
                database.sessions()
                        .fromSession(s -> s.createNativeQuery(
                                        "SELECT value::text FROM setting WHERE key = 'default_user'", String.class)
                                .getSingleResult()));
    }

    @Test
    void namesChangeAndTheEmailStays() {
        User grace = users.create("grace@example.com", "Grace", "", "");
        User changed = users.update(grace.id(), null, "Hopper", "US Navy");
        assertEquals(new User(grace.id(), "grace@example.com", "Grace", "Hopper", "US Navy"), changed);
        assertEquals(changed, users.get(grace.id()));
        assertThrows(NotFoundException.class, () -> users.update(-1, "x", null, null));
    }
}
