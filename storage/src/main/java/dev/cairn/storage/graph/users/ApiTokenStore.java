package dev.cairn.storage.graph.users;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.StorageException;

/**
 * The bearer tokens of a server's API, in the {@code api_token} table: a token's secret is never stored,
 * only the hash the server made of it, by which a request's token is found.
 */
public final class ApiTokenStore {

    private static final String COLUMNS = "t.id, t.uuid, t.user_id, u.email, t.name, t.roles, t.created, t.expires,"
            + " t.last_used, t.revoked FROM api_token t JOIN app_user u ON u.id = t.user_id";

    /** The role of the tokens that may do everything, making other tokens among it. */
    public static final String ADMIN = "admin";

    private final Database database;

    /** The API tokens of this database. */
    public ApiTokenStore(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /**
     * Stores a token of the user {@code userId} under the hash of its secret.
     *
     * @param expires when it stops working; null for never
     * @throws NotFoundException if there is no such user
     */
    public ApiToken create(
            long userId, String name, byte[] secretHash, Collection<String> roles, OffsetDateTime expires) {
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("INSERT INTO api_token (uuid, user_id, name, secret_hash,"
                        + " roles, expires) SELECT ?, id, ?, ?, ?, ? FROM app_user WHERE id = ? RETURNING id")) {
            UUID uuid = UUID.randomUUID();
            s.setObject(1, uuid);
            s.setString(2, name);
            s.setBytes(3, secretHash);
            s.setArray(4, c.createArrayOf("text", roles.toArray()));
            s.setObject(5, expires);
            s.setLong(6, userId);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new NotFoundException("no user with id " + userId + " to make a token for");
                }
            }
            return byUuid(c, uuid).orElseThrow();
        } catch (SQLException e) {
            throw new StorageException("making a token", e);
        }
    }

    /** The token stored under this hash of its secret, valid or not; empty when there is none. */
    public Optional<ApiToken> bySecretHash(byte[] secretHash) {
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("SELECT " + COLUMNS + " WHERE t.secret_hash = ?")) {
            s.setBytes(1, secretHash);
            return one(s);
        } catch (SQLException e) {
            throw new StorageException("checking a token", e);
        }
    }

    /** The token with this uuid, if there is one. */
    public Optional<ApiToken> byUuid(UUID uuid) {
        try (Connection c = database.connection()) {
            return byUuid(c, uuid);
        } catch (SQLException e) {
            throw new StorageException("reading token " + uuid, e);
        }
    }

    private Optional<ApiToken> byUuid(Connection c, UUID uuid) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT " + COLUMNS + " WHERE t.uuid = ?")) {
            s.setObject(1, uuid);
            return one(s);
        }
    }

    /** Every token, or a user's (a null user: every user's), newest first. */
    public List<ApiToken> list(Long userId) {
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement(
                        "SELECT " + COLUMNS + " WHERE ?::bigint IS NULL OR t.user_id = ? ORDER BY t.id DESC")) {
            s.setObject(1, userId);
            s.setObject(2, userId);
            List<ApiToken> tokens = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    tokens.add(read(rs));
                }
            }
            return tokens;
        } catch (SQLException e) {
            throw new StorageException("listing tokens", e);
        }
    }

    /** True when no token was ever made. */
    public boolean isEmpty() {
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("SELECT NOT EXISTS (SELECT 1 FROM api_token)");
                ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getBoolean(1);
        } catch (SQLException e) {
            throw new StorageException("counting tokens", e);
        }
    }

    /**
     * Revokes a token at once; revoking it again changes nothing. Refused ({@link ConflictException}) when the
     * token is the last valid admin token that does not expire: the installation would be left with no admin
     * once the others expire, and no token could make another. The check and the revocation run in one
     * transaction that locks the admin tokens, so two revocations at once cannot both pass it.
     *
     * @throws NotFoundException if there is no such token
     */
    public ApiToken revoke(UUID uuid) {
        try (Connection c = database.connection()) {
            c.setAutoCommit(false);
            try {
                ApiToken token = byUuid(c, uuid).orElseThrow(() -> new NotFoundException("no token with uuid " + uuid));
                if (token.revoked() == null && lastLastingAdmin(c, token)) {
                    throw new ConflictException(
                            "token " + uuid + " (" + token.name() + ") is the last valid admin token"
                                    + " that does not expire: revoking it would leave this installation with no admin. Make"
                                    + " another admin token first (cairn token create --role admin); on the server's host,"
                                    + " `cairn token create --role admin --local` makes one without a token");
                }
                try (PreparedStatement s =
                        c.prepareStatement("UPDATE api_token SET revoked = coalesce(revoked, now()) WHERE uuid = ?")) {
                    s.setObject(1, uuid);
                    s.executeUpdate();
                }
                ApiToken revoked = byUuid(c, uuid).orElseThrow();
                c.commit();
                return revoked;
            } catch (RuntimeException | SQLException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new StorageException("revoking token " + uuid, e);
        }
    }

    /** Whether {@code token} is a lasting admin token (valid, no expiry) and no other is; locks them all. */
    private static boolean lastLastingAdmin(Connection c, ApiToken token) throws SQLException {
        if (!token.roles().contains(ADMIN) || token.expires() != null) {
            return false;
        }
        try (PreparedStatement s = c.prepareStatement("SELECT id FROM api_token WHERE 'admin' = ANY (roles)"
                        + " AND revoked IS NULL AND expires IS NULL ORDER BY id FOR UPDATE");
                ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                if (rs.getLong(1) != token.id()) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Notes that the token was used now. */
    public void touch(long id) {
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("UPDATE api_token SET last_used = now() WHERE id = ?")) {
            s.setLong(1, id);
            s.executeUpdate();
        } catch (SQLException e) {
            throw new StorageException("noting the use of token " + id, e);
        }
    }

    private static Optional<ApiToken> one(PreparedStatement s) throws SQLException {
        try (ResultSet rs = s.executeQuery()) {
            return rs.next() ? Optional.of(read(rs)) : Optional.empty();
        }
    }

    private static ApiToken read(ResultSet rs) throws SQLException {
        Array array = rs.getArray(6);
        List<String> roles = Arrays.stream((Object[]) array.getArray())
                .map(String.class::cast)
                .toList();
        return new ApiToken(
                rs.getLong(1),
                rs.getObject(2, UUID.class),
                rs.getLong(3),
                rs.getString(4),
                rs.getString(5),
                roles,
                rs.getObject(7, OffsetDateTime.class),
                rs.getObject(8, OffsetDateTime.class),
                rs.getObject(9, OffsetDateTime.class),
                rs.getObject(10, OffsetDateTime.class));
    }
}
