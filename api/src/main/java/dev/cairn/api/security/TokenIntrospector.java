package dev.cairn.api.security;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal;
import org.springframework.security.oauth2.server.resource.introspection.BadOpaqueTokenException;
import org.springframework.security.oauth2.server.resource.introspection.OpaqueTokenIntrospector;

/**
 * Checks Cairn's own tokens. A token seen valid is remembered for {@link #REMEMBER}, so the API
 * does not ask the database at every request; revoking a token therefore takes effect within
 * that time. The last use of a token is written at most once a minute.
 */
final class TokenIntrospector implements OpaqueTokenIntrospector {

    static final Duration REMEMBER = Duration.ofSeconds(5);
    private static final Duration TOUCH_EVERY = Duration.ofMinutes(1);

    private record Seen(Token token, long at) {}

    private final TokenService tokens;
    private final Map<String, Seen> seen = new ConcurrentHashMap<>();
    private final Map<Long, Long> touched = new ConcurrentHashMap<>();

    TokenIntrospector(TokenService tokens) {
        this.tokens = tokens;
    }

    @Override
    public OAuth2AuthenticatedPrincipal introspect(String secret) {
        long now = System.nanoTime();
        Seen s = seen.get(secret);
        if (s == null || now - s.at() > REMEMBER.toNanos()) {
            Token token = tokens.bySecret(secret).orElseThrow(() -> new BadOpaqueTokenException("unknown token"));
            s = new Seen(token, now);
            if (seen.size() > 10_000) {
                seen.clear(); // an attacker's many unknown tokens are never remembered; this bounds the rest
            }
            seen.put(secret, s);
        }
        Token token = s.token();
        if (!token.isValidAt(OffsetDateTime.now())) {
            throw new BadOpaqueTokenException(token.revoked() != null ? "the token was revoked" : "the token expired");
        }
        touch(token.id(), now);
        return new CairnPrincipal(token.userId(), token.userEmail(), token.roles(), token.id());
    }

    private void touch(long tokenId, long now) {
        Long last = touched.get(tokenId);
        if (last == null || now - last > TOUCH_EVERY.toNanos()) {
            touched.put(tokenId, now);
            tokens.touch(tokenId);
        }
    }
}
