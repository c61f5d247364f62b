package dev.cairn.api.security;

import java.io.IOException;
import java.time.Instant;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import com.nimbusds.jose.KeySourceException;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtDecoderInitializationException;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthentication;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;
import org.springframework.security.oauth2.server.resource.introspection.BadOpaqueTokenException;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.UnavailableException;

/**
 * Authenticates a bearer token: Cairn's own (they begin {@code cairn_}) by the token store, any
 * other as a JWT of the configured OIDC issuer, whose claims name the user (an email) and the
 * roles. Either way the request acts as a Cairn user; a JWT's user is made on first sight.
 */
final class BearerAuthentication implements AuthenticationProvider {

    private final TokenIntrospector tokens;
    private final JwtDecoder jwts;
    private final CairnProperties.Oidc oidc;
    private final UserAccounts users;

    /** @param jwts null when no OIDC issuer is configured */
    BearerAuthentication(TokenIntrospector tokens, JwtDecoder jwts, CairnProperties.Oidc oidc, UserAccounts users) {
        this.tokens = tokens;
        this.jwts = jwts;
        this.oidc = oidc;
        this.users = users;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        String secret = ((BearerTokenAuthenticationToken) authentication).getToken();
        CairnPrincipal principal;
        Instant issued = null;
        Instant expires = null;
        if (secret.startsWith(TokenService.PREFIX)) {
            try {
                principal = (CairnPrincipal) tokens.introspect(secret);
            } catch (BadOpaqueTokenException e) {
                throw new InvalidBearerTokenException(e.getMessage(), e);
            }
        } else if (jwts != null) {
            Jwt jwt;
            try {
                jwt = jwts.decode(secret);
            } catch (JwtException | JwtDecoderInitializationException e) {
                if (issuerAway(e)) {
                    throw new UnavailableException(
                            "checking a JWT: the OIDC issuer " + oidc.issuerUri() + " did not answer", e);
                }
                throw new InvalidBearerTokenException("the JWT was refused: " + e.getMessage(), e);
            }
            principal = fromJwt(jwt);
            issued = jwt.getIssuedAt();
            expires = jwt.getExpiresAt();
        } else {
            throw new InvalidBearerTokenException(
                    "not a Cairn token (they begin " + TokenService.PREFIX + "), and this server takes no JWTs");
        }
        OAuth2AccessToken token = new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, secret, issued, expires);
        return new BearerTokenAuthentication(principal, token, principal.getAuthorities());
    }

    /**
     * Whether a JWT could not be checked because the issuer's discovery document or keys could not be
     * fetched (the decoder is made at the first JWT, and the keys are fetched again when they rotate):
     * an outage, answered 503, where a JWT that fails its checks is the client's fault.
     */
    private static boolean issuerAway(RuntimeException e) {
        if (e instanceof JwtDecoderInitializationException) {
            return true;
        }
        for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof IOException || t instanceof KeySourceException) {
                return true;
            }
        }
        return false;
    }

    private CairnPrincipal fromJwt(Jwt jwt) {
        String email = jwt.getClaimAsString(oidc.userClaim());
        if (email == null || email.isBlank()) {
            throw new InvalidBearerTokenException("the JWT has no claim '" + oidc.userClaim() + "' naming its user");
        }
        Set<Role> roles = EnumSet.noneOf(Role.class);
        for (String name : claimValues(jwt.getClaim(oidc.rolesClaim()))) {
            try {
                roles.add(Role.of(name));
            } catch (InvalidInputException notOurs) {
                // an issuer's other roles mean nothing here
            }
        }
        if (roles.isEmpty()) {
            throw new InvalidBearerTokenException(
                    "the JWT's claim '" + oidc.rolesClaim() + "' names none of the roles read, submit, admin");
        }
        return new CairnPrincipal(users.idOf(email), email, roles, null);
    }

    private static List<String> claimValues(Object claim) {
        return switch (claim) {
            case null -> List.of();
            case String s -> List.of(s.trim().split("[\\s,]+"));
            case Collection<?> c -> c.stream().map(String::valueOf).toList();
            default -> List.of(String.valueOf(claim));
        };
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return BearerTokenAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
