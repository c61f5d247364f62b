package dev.cairn.api.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.users.ApiToken;
import dev.cairn.storage.graph.users.ApiTokenStore;
import dev.cairn.storage.graph.users.User;
import dev.cairn.storage.graph.users.UserStore;

/**
 * The bearer tokens of the API, for every surface of the server: made for a user (the secret shown once),
 * found by the secret a request brings, listed and shown without secrets, revoked. A token's secret is
 * {@code cairn_} and 256 random bits; only its SHA-256 is stored (a secret of that strength needs no slow
 * hash), so a leaked table leaks no token.
 */
public final class TokenService {

    /** Every secret begins so: a server tells its own tokens from JWTs by it. */
    public static final String PREFIX = "cairn_";

    private final ApiTokenStore tokens;
    private final UserStore users;
    private final SecureRandom random = new SecureRandom();

    public TokenService(Storage storage) {
        this.tokens = storage.tokens();
        this.users = storage.users();
    }

    /** A new token and its secret, which nothing keeps. */
    public record Issued(Token token, String secret) {}

    /**
     * Makes a token for the user with {@code email}, or for {@code callerId} when it is null.
     *
     * @param roles   role names: read, submit, admin
     * @param expires when it stops working; null for never
     */
    public Issued issue(String email, long callerId, String name, List<String> roles, OffsetDateTime expires) {
        long userId = email == null ? callerId : userId(email, "field 'user'");
        if (roles == null || roles.isEmpty()) {
            throw new InvalidInputException("field 'roles' is required: one or more of read, submit, admin");
        }
        Set<Role> parsed = EnumSet.noneOf(Role.class);
        for (String role : roles) {
            parsed.add(Role.of(role));
        }
        // in UTC: PostgreSQL takes offsets up to ±15:59, ISO 8601 (and Java) up to ±18:00
        return create(userId, name, parsed, expires == null ? null : expires.withOffsetSameInstant(ZoneOffset.UTC));
    }

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
        ApiToken token = tokens.create(
                userId,
                name.strip(),
                hash(secret),
                roles.stream().map(Role::value).toList(),
                expires);
        return new Issued(token(token), secret);
    }

    /** The token whose secret this is, valid or not; empty when there is none. */
    public Optional<Token> bySecret(String secret) {
        return tokens.bySecretHash(hash(secret)).map(TokenService::token);
    }

    /** The token with this uuid; a 404 when there is none. */
    public Token show(UUID uuid) {
        return tokens.byUuid(uuid)
                .map(TokenService::token)
                .orElseThrow(() -> new NotFoundException("no token has uuid " + uuid));
    }

    /** Every token, or those of the user with {@code email}, newest first. */
    public List<Token> list(String email) {
        Long userId = email == null ? null : userId(email, "parameter 'user'");
        return tokens.list(userId).stream().map(TokenService::token).toList();
    }

    /** True when no token was ever made (the first start makes the admin token then). */
    public boolean isEmpty() {
        return tokens.isEmpty();
    }

    /** Revokes a token at once; revoking it again changes nothing. */
    public Token revoke(UUID uuid) {
        return token(tokens.revoke(uuid));
    }

    /** Notes that the token was used now. */
    void touch(long id) {
        tokens.touch(id);
    }

    private long userId(String email, String field) {
        return users.findByEmail(email)
                .map(User::id)
                .orElseThrow(() -> new InvalidInputException(field + ": no user has the email '" + email + "'"));
    }

    private static Token token(ApiToken t) {
        Set<Role> roles = EnumSet.noneOf(Role.class);
        for (String r : t.roles()) {
            roles.add(Role.of(r));
        }
        return new Token(
                t.id(),
                t.uuid(),
                t.userId(),
                t.userEmail(),
                t.name(),
                roles,
                t.created(),
                t.expires(),
                t.lastUsed(),
                t.revoked());
    }

    static byte[] hash(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
