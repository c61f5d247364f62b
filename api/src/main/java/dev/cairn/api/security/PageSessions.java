package dev.cairn.api.security;

import java.time.Duration;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.config.StartupProblem;

/**
 * The web view's sessions. A person signs in with what a client of the API would send as a bearer
 * token (a Cairn token, or the access token the OIDC issuer gave at sign-in); the session keeps it on
 * the server, and each page request is authenticated with it exactly as an API request would be, so a
 * revoked or expired token ends the session at the next click. The browser holds only the session
 * cookie (HttpOnly, SameSite=Lax), which is what its {@code EventSource} can send; writes also need the
 * session's CSRF token. A session ends once it has been idle for {@code cairn.security.session-timeout}:
 * idle meaning no request of the person's, so a page left open, whose event stream and the fetches that
 * stream sets off go on, does not keep it alive ({@link #active}).
 */
public final class PageSessions {

    /** The session attribute that holds the credential. */
    static final String CREDENTIAL = PageSessions.class.getName() + ".credential";

    /** The session attribute that says why the last session ended, for the sign-in page. */
    public static final String ENDED = PageSessions.class.getName() + ".ended";

    /** The session attribute that holds when the person last made a request (epoch milliseconds). */
    static final String ACTIVE = PageSessions.class.getName() + ".active";

    /** The header of a page script's request made because of the event stream, not of the person. */
    static final String LIVE_HEADER = "X-Cairn-Live";

    private final BearerAuthentication bearer;
    private final boolean readOnly;
    private final Duration timeout;

    PageSessions(BearerAuthentication bearer, CairnProperties properties) {
        this.bearer = bearer;
        this.readOnly = properties.security().readOnly();
        this.timeout = properties.security().sessionTimeout();
        if (timeout.toSeconds() < 1 || timeout.toSeconds() > Integer.MAX_VALUE) {
            throw new StartupProblem(
                    "cairn.security.session-timeout is " + timeout + ": give a duration of 1s or more (30m)", null);
        }
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
        HttpSession session = request.getSession(true);
        // the container counts its own default in whole minutes: this session's, to the second
        session.setMaxInactiveInterval((int) timeout.toSeconds());
        session.setAttribute(CREDENTIAL, credential.strip());
        session.setAttribute(ACTIVE, System.currentTimeMillis());
        SecurityContextHolder.getContext().setAuthentication(who);
        return (CairnPrincipal) who.getPrincipal();
    }

    /**
     * Whether {@code request} is the person's: not a page's event stream, nor a fetch the stream set off.
     * The container counts both as the session's use (each of their requests begins and ends an access of
     * it), so the session's own idle time is kept apart ({@link #ACTIVE}).
     */
    static boolean byThePerson(HttpServletRequest request) {
        return !request.getRequestURI().equals("/ui/events") && request.getHeader(LIVE_HEADER) == null;
    }

    /** Notes a request of the person's in {@code session}. */
    static void active(HttpSession session) {
        session.setAttribute(ACTIVE, System.currentTimeMillis());
    }

    /**
     * Whether {@code session} has been idle (no request of the person's) past the timeout, or has ended; a
     * page's event stream asks this of its session, from another thread than the session's requests.
     */
    public boolean ended(HttpSession session) {
        try {
            Object active = session.getAttribute(ACTIVE);
            return active instanceof Long at && System.currentTimeMillis() - at > timeout.toMillis();
        } catch (IllegalStateException invalidated) {
            return true;
        }
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
