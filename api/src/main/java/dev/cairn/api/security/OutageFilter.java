package dev.cairn.api.security;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.api.web.Outages;
import dev.cairn.api.web.Problems;

/**
 * An outage met before the controllers, where no controller advice answers: checking a token reads
 * the database, and a database that is away would otherwise end the request as a 500 of the servlet
 * container. It is answered as the controllers' outages are, 503 with {@code Retry-After}.
 */
final class OutageFilter extends OncePerRequestFilter {

    private static final Logger LOG = LoggerFactory.getLogger(OutageFilter.class);

    private final JsonMapper json;

    OutageFilter(JsonMapper json) {
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            chain.doFilter(request, response);
        } catch (RuntimeException | ServletException | IOException e) {
            if (!Outages.isOutage(e) || response.isCommitted()) {
                throw e;
            }
            LOG.warn("unavailable: {}", e.toString());
            response.setHeader(HttpHeaders.RETRY_AFTER, Outages.RETRY_AFTER_SECONDS);
            SecurityConfiguration.write(
                    json,
                    response,
                    Problems.UNAVAILABLE.with(
                            Outages.describe(e) + ": a service the server needs did not answer; try again shortly"));
        }
    }
}
