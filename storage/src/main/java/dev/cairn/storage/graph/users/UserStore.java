package dev.cairn.storage.graph.users;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

import org.hibernate.Session;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.internal.UserEntity;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.SqlErrors;

/**
 * The users of a profile, and which of them is the default: the owner of what is created
 * without naming a user. The default is kept in the {@code setting} table under
 * {@value #DEFAULT_USER_SETTING}, as the user's email.
 */
public final class UserStore {

    public static final String DEFAULT_USER_SETTING = "default_user";

    // Not a full RFC 5322 check: something@something, no spaces. Enough to catch a name typed
    // into the email field.
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+");

    private final Database database;

    /** The users of this database. */
    public UserStore(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /**
     * Adds a user.
     *
     * @throws InvalidInputException if the email is not of the form {@code name@host}
     * @throws ConflictException     if a user with this email exists
     */
    public User create(String email, String firstName, String lastName, String institution) {
        if (email == null || !EMAIL.matcher(email).matches()) {
            throw new InvalidInputException(
                    "user email '" + email + "' is not an email address (name@host, no spaces)");
        }
        UserEntity entity = new UserEntity();
        entity.email = email;
        entity.firstName = Objects.requireNonNullElse(firstName, "");
        entity.lastName = Objects.requireNonNullElse(lastName, "");
        entity.institution = Objects.requireNonNullElse(institution, "");
        try {
            database.sessions().inTransaction(session -> {
                // Checked first for a clean error in the usual case; the unique constraint decides races.
                if (byEmail(session, email).isPresent()) {
                    throw emailTaken(email, null);
                }
                session.persist(entity);
            });
        } catch (RuntimeException e) {
            if (SqlErrors.violated(e, "app_user_email_key")) {
                throw emailTaken(email, e);
            }
            throw e;
        }
        return toUser(entity);
    }

    /** The user with this email, if there is one. */
    public Optional<User> findByEmail(String email) {
        return database.sessions()
                .fromSession(session -> byEmail(session, email).map(UserStore::toUser));
    }

    /** @throws NotFoundException if there is no such user */
    public User get(long id) {
        UserEntity entity = database.sessions().fromSession(session -> session.find(UserEntity.class, id));
        if (entity == null) {
            throw new NotFoundException("user " + id + " does not exist");
        }
        return toUser(entity);
    }

    /** All users, by email. */
    public List<User> list() {
        return database.sessions()
                .fromSession(
                        session -> session
                                .createSelectionQuery("from UserEntity order by email", UserEntity.class)
                                .getResultList()
                                .stream()
                                .map(UserStore::toUser)
                                .toList());
    }

    /**
     * Changes a user's names and institution; a null leaves that one as it is. The email, the
     * user's identity, does not change.
     *
     * @throws NotFoundException if there is no such user
     */
    public User update(long id, String firstName, String lastName, String institution) {
        return database.sessions().fromTransaction(session -> {
            UserEntity entity = session.find(UserEntity.class, id);
            if (entity == null) {
                throw new NotFoundException("user " + id + " does not exist");
            }
            entity.firstName = Objects.requireNonNullElse(firstName, entity.firstName);
            entity.lastName = Objects.requireNonNullElse(lastName, entity.lastName);
            entity.institution = Objects.requireNonNullElse(institution, entity.institution);
            session.flush();
            return toUser(entity);
        });
    }

    /**
     * Makes the user with this email the profile's default user.
     *
     * @throws NotFoundException if no user has this email
     */
    public void setDefault(String email) {
        database.sessions().inTransaction(session -> {
            if (byEmail(session, email).isEmpty()) {
                throw new NotFoundException(
                        "no user has email '" + email + "'; create the user before making it the default");
            }
            session.createNativeMutationQuery("""
                    INSERT INTO setting (key, value, description, time)
                    VALUES (:key, to_jsonb(CAST(:email AS text)), 'email of the user that owns what is created without naming one', now())
                    ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, time = EXCLUDED.time""")
                    .setParameter("key", DEFAULT_USER_SETTING)
                    .setParameter("email", email)
                    .executeUpdate();
        });
    }

    /** The profile's default user, if one was set. */
    public Optional<User> defaultUser() {
        return database.sessions()
                .fromSession(session -> session.createNativeQuery(
                                "SELECT u.* FROM setting s JOIN app_user u ON u.email = s.value #>> '{}' WHERE s.key = :key",
                                UserEntity.class)
                        .setParameter("key", DEFAULT_USER_SETTING)
                        .uniqueResultOptional()
                        .map(UserStore::toUser));
    }

    private static Optional<UserEntity> byEmail(Session session, String email) {
        return session.createSelectionQuery("from UserEntity where email = :email", UserEntity.class)
                .setParameter("email", email)
                .uniqueResultOptional();
    }

    private static ConflictException emailTaken(String email, Throwable cause) {
        return new ConflictException("a user with email '" + email + "' exists already", cause);
    }

    private static User toUser(UserEntity e) {
        return new User(e.id, e.email, e.firstName, e.lastName, e.institution);
    }
}
