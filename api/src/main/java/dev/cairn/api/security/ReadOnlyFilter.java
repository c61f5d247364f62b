package dev.cairn.api.security;

import java.io.IOException;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.api.web.Problems;

/** A read-only server: every request that would change something is refused, whatever its token. */
final class ReadOnlyFilter extends OncePerRequestFilter {

    private static final Set<String> READING = Set.of("GET", "HEAD", "OPTIONS");
    /** Requests that read with a body. */
    private static final Set<String> READING_POSTS = Set.of(
            "/api/v1/query",
            "/api/v1/query/stream",
            "/api/v1/query/columns",
            "/api/v1/processes/explain-cache",
            "/api/v1/archive/inspection");

    private final JsonMapper json;

    ReadOnlyFilter(JsonMapper json) {
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (READING.contains(request.getMethod())
                || ("POST".equals(request.getMethod()) && READING_POSTS.contains(request.getRequestURI()))) {
            chain.doFilter(request, response);
            return;
        }
        SecurityConfiguration.write(
                json,
                response,
                Problems.READ_ONLY.with("this server is read-only (cairn.security.read-only): " + request.getMethod()
                        + " " + request.getRequestURI() + " would change something"));
    }
}
