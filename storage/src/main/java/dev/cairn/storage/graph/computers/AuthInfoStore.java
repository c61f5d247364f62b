package dev.cairn.storage.graph.computers;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

import org.hibernate.Session;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.internal.AuthInfoEntity;
import dev.cairn.storage.db.internal.ComputerEntity;
import dev.cairn.storage.db.internal.UserEntity;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.SqlErrors;

/** The authinfo of each (user, computer) pair: at most one per pair. */
public final class AuthInfoStore {

    // The user and computer come along: a lazy proxy's public id field is never loaded.
    private static final String FETCHED = "from AuthInfoEntity a join fetch a.user join fetch a.computer";

    private final Database database;

    /** The authinfos of this database. */
    public AuthInfoStore(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /**
     * Configures how {@code userId} reaches {@code computerId}; enabled.
     *
     * @throws NotFoundException if the user or the computer does not exist
     * @throws ConflictException if the pair is configured already
     */
    public AuthInfo create(long userId, long computerId, Map<String, Object> authParams) {
        Objects.requireNonNull(authParams, "authParams");
        try {
            return database.sessions().fromTransaction(session -> {
                AuthInfoEntity entity = new AuthInfoEntity();
                entity.user = requireUser(session, userId);
                entity.computer = requireComputer(session, computerId);
                if (byPair(session, userId, computerId).isPresent()) {
                    throw exists(userId, computerId, null);
                }
                entity.authParams = new LinkedHashMap<>(authParams);
                entity.metadata = new LinkedHashMap<>();
                entity.enabled = true;
                session.persist(entity);
                session.flush();
                return toAuthInfo(entity);
            });
        } catch (RuntimeException e) {
            if (SqlErrors.violated(e, "authinfo_user_id_computer_id_key")) {
                throw exists(userId, computerId, e);
            }
            throw e;
        }
    }

    /** The user's settings of the computer, if it has been configured for them. */
    public Optional<AuthInfo> find(long userId, long computerId) {
        return database.sessions()
                .fromSession(session -> byPair(session, userId, computerId).map(AuthInfoStore::toAuthInfo));
    }

    /** @throws NotFoundException if the pair has no authinfo */
    public AuthInfo get(long userId, long computerId) {
        return find(userId, computerId).orElseThrow(() -> notFound(userId, computerId));
    }

    /** The authinfos of every user on one computer. */
    public List<AuthInfo> forComputer(long computerId) {
        return database.sessions()
                .fromSession(session -> session
                        .createSelectionQuery(
                                FETCHED + " where a.computer.id = :computer order by a.user.id", AuthInfoEntity.class)
                        .setParameter("computer", computerId)
                        .getResultList()
                        .stream()
                        .map(AuthInfoStore::toAuthInfo)
                        .toList());
    }

    /** Replaces the authentication parameters of a configured computer. */
    public AuthInfo setAuthParams(long userId, long computerId, Map<String, Object> authParams) {
        Objects.requireNonNull(authParams, "authParams");
        return update(userId, computerId, e -> e.authParams = new LinkedHashMap<>(authParams));
    }

    /** Replaces the metadata of a configured computer. */
    public AuthInfo setMetadata(long userId, long computerId, Map<String, Object> metadata) {
        Objects.requireNonNull(metadata, "metadata");
        return update(userId, computerId, e -> e.metadata = new LinkedHashMap<>(metadata));
    }

    /** Enables or disables the computer for the user. */
    public AuthInfo setEnabled(long userId, long computerId, boolean enabled) {
        return update(userId, computerId, e -> e.enabled = enabled);
    }

    /** @throws NotFoundException if the pair has no authinfo */
    public void delete(long userId, long computerId) {
        database.sessions()
                .inTransaction(session -> session.remove(
                        byPair(session, userId, computerId).orElseThrow(() -> notFound(userId, computerId))));
    }

    private AuthInfo update(long userId, long computerId, Consumer<AuthInfoEntity> change) {
        return database.sessions().fromTransaction(session -> {
            AuthInfoEntity entity = byPair(session, userId, computerId).orElseThrow(() -> notFound(userId, computerId));
            change.accept(entity);
            session.flush();
            return toAuthInfo(entity);
        });
    }

    private static Optional<AuthInfoEntity> byPair(Session session, long userId, long computerId) {
        return session.createSelectionQuery(
                        FETCHED + " where a.user.id = :user and a.computer.id = :computer", AuthInfoEntity.class)
                .setParameter("user", userId)
                .setParameter("computer", computerId)
                .uniqueResultOptional();
    }

    private static UserEntity requireUser(Session session, long userId) {
        UserEntity user = session.find(UserEntity.class, userId);
        if (user == null) {
            throw new NotFoundException("authinfo: user " + userId + " does not exist");
        }
        return user;
    }

    private static ComputerEntity requireComputer(Session session, long computerId) {
        ComputerEntity computer = session.find(ComputerEntity.class, computerId);
        if (computer == null) {
            throw new NotFoundException("authinfo: computer " + computerId + " does not exist");
        }
        return computer;
    }

    private static ConflictException exists(long userId, long computerId, Throwable cause) {
        return new ConflictException(
                "user " + userId + " has an authinfo for computer " + computerId
                        + " already; change its parameters instead",
                cause);
    }

    private static NotFoundException notFound(long userId, long computerId) {
        return new NotFoundException("user " + userId + " has no authinfo for computer " + computerId);
    }

    private static AuthInfo toAuthInfo(AuthInfoEntity e) {
        return new AuthInfo(e.id, e.user.id, e.computer.id, e.authParams, e.metadata, e.enabled);
    }
}
