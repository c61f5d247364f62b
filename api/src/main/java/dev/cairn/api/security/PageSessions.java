package dev.cairn.api.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;

import dev.cairn.api.config.CairnProperties;

/**
 * The web view's sessions. A person signs in with what a client of the API would send as a bearer
 * token (a Cairn token, or the access token the OIDC issuer gave at sign-in); the session keeps it on
 * the server, and each page request is authenticated with it exactly as an API request would be, so a
 * revoked or expired token ends the session at the next click. The browser holds only the session
 * cookie (HttpOnly, SameSite=Lax), which is what its {@code EventSource} can send; writes also need the
 * session's CSRF token.
 */
public final class PageSessions {

    /** The session attribute that holds the credential. */
    static final String CREDENTIAL = PageSessions.class.getName() + ".credential";

    /** The session attribute that says why the last session ended, for the sign-in page. */
    public static final String ENDED = PageSessions.class.getName() + ".ended";

    private final BearerAuthentication bearer;
    private final boolean readOnly;

    PageSessions(BearerAuthentication bearer, CairnProperties properties) {
        this.bearer = bearer;
        this.readOnly = properties.security().readOnly();
    }

    /**
     * Signs the request's session in with {@code credential}; a new session id, so a session id
     * planted before sign-in is worth nothing after it.
     *
     * @throws AuthenticationException with the reason, when the credential is refused
     */
    public CairnPrincipal signIn(String credential, HttpServletRequest request) {
        Authentication who = authenticate(credential.strip());
        HttpSession old = request.getSession(false);
        if (old != null) {
            old.invalidate();
        }
        request.getSession(true).setAttribute(CREDENTIAL, credential.strip());
        SecurityContextHolder.getContext().setAuthentication(who);
        return (CairnPrincipal) who.getPrincipal();
    }

    Authentication authenticate(String credential) {
        return bearer.authenticate(new BearerTokenAuthenticationToken(credential));
    }

    /** Whether the signed-in person may pause, play and kill: the role submit, on a server that is not read-only. */
    public boolean mayControl() {
        return !readOnly && has(Role.SUBMIT);
    }

    private static boolean has(Role role) {
        Authentication who = SecurityContextHolder.getContext().getAuthentication();
        return who != null
                && who.getPrincipal() instanceof CairnPrincipal p
                && p.roles().stream().anyMatch(r -> r.ordinal() >= role.ordinal());
    }
}
