package dev.cairn.api.nodes;

import java.io.IOException;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.filter.ServerHttpObservationFilter;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.storage.errors.CairnException;

/**
 * The API's hottest read, {@code GET /api/v1/nodes/{uuid}} with no options, answered by a filter behind
 * the security filters instead of the dispatcher: finding the handler among every mapping, the request
 * attributes it sets and the content negotiation were two fifths of the JVM's work on such a read (JFR),
 * for an answer that is always the same JSON. The answer is the controller's ({@link NodesController}'s
 * {@code get}, the same {@link NodeService} and the same mapper); a request of any other shape, and a
 * read that fails (no such node, the database away), goes on to the dispatcher, which answers it as it
 * answers everything else.
 */
final class OneNodeReads extends OncePerRequestFilter {

    private static final String PREFIX = "/api/v1/nodes/";
    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    /** The pattern the dispatcher would have matched, for the request's metrics. */
    private static final String PATH_PATTERN = PREFIX + NodesController.REF_SEGMENT;

    private final Supplier<NodeService> nodes;
    private final Supplier<JsonMapper> json;

    /** {@code nodes} and {@code json} are asked for at each request (beans, made at the first). */
    OneNodeReads(Supplier<NodeService> nodes, Supplier<JsonMapper> json) {
        this.nodes = nodes;
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String ref = oneNode(request);
        if (ref == null) {
            chain.doFilter(request, response);
            return;
        }
        NodeDetails node;
        try {
            node = nodes.get().read(ref, null, null);
        } catch (CairnException e) {
            chain.doFilter(request, response); // answered as a problem, as every failure is
            return;
        }
        ServerHttpObservationFilter.findObservationContext(request)
                .ifPresent(context -> context.setPathPattern(PATH_PATTERN));
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        json.get().writeValue(response.getOutputStream(), node);
    }

    /** The uuid of a plain read of one node that wants JSON, else null. */
    private static String oneNode(HttpServletRequest request) {
        if (!"GET".equals(request.getMethod()) || request.getQueryString() != null) {
            return null;
        }
        String uri = request.getRequestURI();
        if (uri.length() != PREFIX.length() + 36 || !uri.startsWith(PREFIX)) {
            return null;
        }
        String ref = uri.substring(PREFIX.length());
        if (!UUID_TEXT.matcher(ref).matches()) {
            return null;
        }
        String accept = request.getHeader(HttpHeaders.ACCEPT);
        if (accept != null
                && !accept.contains(MediaType.APPLICATION_JSON_VALUE)
                && !accept.contains("*/*")
                && !accept.contains("application/*")) {
            return null;
        }
        return ref;
    }
}
