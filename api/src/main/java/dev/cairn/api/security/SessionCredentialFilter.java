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
 * the sign-in page says why.
 */
final class SessionCredentialFilter extends OncePerRequestFilter {

    private final PageSessions sessions;

    SessionCredentialFilter(PageSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        HttpSession session = request.getSession(false);
        String credential = session == null ? null : (String) session.getAttribute(PageSessions.CREDENTIAL);
        if (credential != null) {
            try {
                SecurityContextHolder.getContext().setAuthentication(sessions.authenticate(credential));
            } catch (AuthenticationException e) {
                session.invalidate();
                request.getSession(true)
                        .setAttribute(PageSessions.ENDED, "Your session ended: " + e.getMessage() + ".");
            }
        }
        chain.doFilter(request, response);
    }
}
