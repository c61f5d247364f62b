package dev.cairn.api.security;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates each page request with the credential its session holds ({@link PageSessions}). A
 * credential refused now (revoked, expired) ends the session; the request then goes on signed out, and
 * the sign-in page says why. An issuer's access token is renewed first when it runs out soon ({@link
 * IssuerRenewal}, where the server signs people in through an issuer). A session idle past its timeout
 * ({@link PageSessions#ended}) is ended here too; a request of the person's notes that the session is in use.
 */
final class SessionCredentialFilter extends OncePerRequestFilter {

    private final PageSessions sessions;
    private final IssuerRenewal renewal;

    /** {@code renewal} null: no sign-in through an issuer. */
    SessionCredentialFilter(PageSessions sessions, IssuerRenewal renewal) {
        this.sessions = sessions;
        this.renewal = renewal;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        HttpSession session = request.getSession(false);
        String credential = session == null ? null : (String) session.getAttribute(PageSessions.CREDENTIAL);
        if (credential != null && sessions.ended(session)) {
            // idle past the timeout, though the container saw its event stream's requests
            end(session);
        } else if (credential != null) {
            try {
                if (PageSessions.byThePerson(request)) {
                    PageSessions.active(session);
                }
                String current = renewal == null ? credential : renewal.current(credential, request, response);
                SecurityContextHolder.getContext().setAuthentication(sessions.authenticate(current));
                if (!current.equals(credential)) {
                    session.setAttribute(PageSessions.CREDENTIAL, current);
                }
            } catch (AuthenticationException | IssuerRenewal.Refused e) {
                SecurityContextHolder.clearContext();
                end(session);
                request.getSession(true)
                        .setAttribute(PageSessions.ENDED, "Your session ended: " + e.getMessage() + ".");
            } catch (IllegalStateException ended) {
                // another request of the session (a sign-out, a page's parallel request) ended it meanwhile
                SecurityContextHolder.clearContext();
            }
        }
        chain.doFilter(request, response);
    }

    private static void end(HttpSession session) {
        try {
            session.invalidate();
        } catch (IllegalStateException already) {
            // another request of the session ended it first
        }
    }
}
