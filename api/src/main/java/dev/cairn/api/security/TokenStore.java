package dev.cairn.api.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import dev.cairn.errors.ConflictException;
import dev.cairn.errors.InvalidInputException;
import dev.cairn.errors.NotFoundException;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.StorageException;

/**
 * The bearer tokens of the API in the {@code api_token} table. A token's secret is
 * {@code cairn_} and 256 random bits; only its SHA-256 is stored (a secret of that strength needs
 * no slow hash), so it is shown once, when it is made, and a leaked table leaks no token.
 */
public final class TokenStore {

    /** Every secret begins so: a server tells its own tokens from JWTs by it. */
    public static final String PREFIX = "cairn_";

    private static final String COLUMNS = "t.id, t.uuid, t.user_id, u.email, t.name, t.roles, t.created, t.expires,"
            + " t.last_used, t.revoked FROM api_token t JOIN app_user u ON u.id = t.user_id";

    private final Database database;
    private final SecureRandom random = new SecureRandom();

    public TokenStore(Database database) {
        this.database = database;
    }

    /** A new token and its secret, which nothing keeps. */
    public record Issued(Token token, String secret) {}

    /**
     * Makes a token for a user.
     *
     * @param expires when it stops working; null for never
     */
    public Issued create(long userId, String name, Set<Role> roles, OffsetDateTime expires) {
        if (name == null || name.isBlank()) {
            throw new InvalidInputException("a token needs a name saying what it is for");
        }
        if (roles.isEmpty()) {
            throw new InvalidInputException("a token needs at least one role: read, submit or admin");
        }
        if (expires != null && !expires.isAfter(OffsetDateTime.now())) {
            throw new InvalidInputException("a token's expiry must be in the future, not " + expires);
        }
        byte[] bits = new byte[32];
        random.nextBytes(bits);
        String secret = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bits);
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("INSERT INTO api_token (uuid, user_id, name, secret_hash,"
                        + " roles, expires) SELECT ?, id, ?, ?, ?, ? FROM app_user WHERE id = ? RETURNING id")) {
            UUID uuid = UUID.randomUUID();
            s.setObject(1, uuid);
            s.setString(2, name.strip());
            s.setBytes(3, hash(secret));
            s.setArray(
                    4, c.createArrayOf("text", roles.stream().map(Role::value).toArray()));
            s.setObject(5, expires);
            s.setLong(6, userId);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new NotFoundException("no user with id " + userId + " to make a token for");
                }
            }
            return new Issued(byUuid(c, uuid).orElseThrow(), secret);
        } catch (SQLException e) {
            throw new StorageException("making a token", e);
        }
    }

    /** The token whose secret this is, valid or not; empty when there is none. */
    public Optional<Token> bySecret(String secret) {
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("SELECT " + COLUMNS + " WHERE t.secret_hash = ?")) {
            s.setBytes(1, hash(secret));
            return one(s);
        } catch (SQLException e) {
            throw new StorageException("checking a token", e);
        }
    }

    public Optional<Token> byUuid(UUID uuid) {
        try (Connection c = database.connection()) {
            return byUuid(c, uuid);
        } catch (SQLException e) {
            throw new StorageException("reading token " + uuid, e);
        }
    }

    private Optional<Token> byUuid(Connection c, UUID uuid) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT " + COLUMNS + " WHERE t.uuid = ?")) {
            s.setObject(1, uuid);
            return one(s);
        }
    }

    /** Every token, or a user's (a null user: every user's), newest first. */
    public List<Token> list(Long userId) {
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement(
                        "SELECT " + COLUMNS + " WHERE ?::bigint IS NULL OR t.user_id = ? ORDER BY t.id DESC")) {
            s.setObject(1, userId);
            s.setObject(2, userId);
            List<Token> tokens = new ArrayList<>();
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

    /** True when no token was ever made (the first start makes the admin token then). */
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
     */
    public Token revoke(UUID uuid) {
        try (Connection c = database.connection()) {
            c.setAutoCommit(false);
            try {
                Token token = byUuid(c, uuid).orElseThrow(() -> new NotFoundException("no token with uuid " + uuid));
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
                Token revoked = byUuid(c, uuid).orElseThrow();
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
    private static boolean lastLastingAdmin(Connection c, Token token) throws SQLException {
        if (!token.roles().contains(Role.ADMIN) || token.expires() != null) {
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
    void touch(long id) {
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("UPDATE api_token SET last_used = now() WHERE id = ?")) {
            s.setLong(1, id);
            s.executeUpdate();
        } catch (SQLException e) {
            throw new StorageException("noting the use of token " + id, e);
        }
    }

    private static Optional<Token> one(PreparedStatement s) throws SQLException {
        try (ResultSet rs = s.executeQuery()) {
            return rs.next() ? Optional.of(read(rs)) : Optional.empty();
        }
    }

    private static Token read(ResultSet rs) throws SQLException {
        Set<Role> roles = EnumSet.noneOf(Role.class);
        Array array = rs.getArray(6);
        for (Object r : (Object[]) array.getArray()) {
            roles.add(Role.of((String) r));
        }
        return new Token(
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

    static byte[] hash(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
