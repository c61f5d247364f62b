package dev.cairn.api.security;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A POST with {@code X-HTTP-Method-Override: PATCH} is served as the PATCH it stands for, by every
 * filter after this one (authorization, read-only) and by the controllers. Clients whose HTTP stack
 * has no PATCH need it: the JDK's plain {@code HttpURLConnection}, which the command line uses because
 * it starts in a quarter of the time of the JDK's {@code HttpClient}. Only PATCH may be asked for, so
 * the header can never turn a write into a read.
 */
final class MethodOverrideFilter extends OncePerRequestFilter {

    static final String HEADER = "X-HTTP-Method-Override";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if ("POST".equals(request.getMethod()) && "PATCH".equalsIgnoreCase(request.getHeader(HEADER))) {
            chain.doFilter(
                    new HttpServletRequestWrapper(request) {
                        @Override
                        public String getMethod() {
                            return "PATCH";
                        }
                    },
                    response);
            return;
        }
        chain.doFilter(request, response);
    }
}
