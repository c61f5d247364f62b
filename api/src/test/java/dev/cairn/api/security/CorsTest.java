package dev.cairn.api.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.context.TestPropertySource;

/**
 * CORS as configured ({@code cairn.security.cors-origins}): a browser page of an allowed origin gets
 * the headers that let it call the API and read its answers, errors included; a page of any other
 * origin is refused, preflight and actual request alike, and gets none of them. What CORS decides
 * needs no data: a {@link SecuritySlice}.
 */
@TestPropertySource(properties = "cairn.security.cors-origins=" + CorsTest.ALLOWED)
class CorsTest extends SecuritySlice {

    static final String ALLOWED = "https://lab.example.org";
    static final String OTHER = "https://elsewhere.example.com";

    @Test
    void aPreflightFromAnAllowedOriginIsAnsweredWithWhatItMaySend() throws Exception {
        MockHttpServletResponse r = preflight(ALLOWED);
        assertEquals(200, r.getStatus(), r.getContentAsString());
        assertEquals(ALLOWED, r.getHeader("Access-Control-Allow-Origin"));
        assertTrue(
                r.getHeader("Access-Control-Allow-Methods").contains("POST"),
                r.getHeader("Access-Control-Allow-Methods"));
        String headers = r.getHeader("Access-Control-Allow-Headers").toLowerCase(Locale.ROOT);
        assertTrue(headers.contains("authorization") && headers.contains("content-type"), headers);
    }

    @Test
    void aPreflightFromAnotherOriginIsRefusedWithoutTheHeaders() throws Exception {
        assertRefusedWithoutCorsHeaders(preflight(OTHER));
    }

    @Test
    void anActualRequestFromAnAllowedOriginGetsTheHeadersWithItsAnswerOrItsError() throws Exception {
        MockHttpServletResponse info = fromOrigin("/api/v1/server", null, ALLOWED);
        assertEquals(200, info.getStatus(), info.getContentAsString());
        assertEquals(ALLOWED, info.getHeader("Access-Control-Allow-Origin"));
        assertTrue(
                info.getHeader("Access-Control-Expose-Headers").contains("Link"),
                info.getHeaderNames().toString());
        // a page must be able to read a refusal, too
        MockHttpServletResponse refused = fromOrigin("/api/v1/server/schema", null, ALLOWED);
        assertEquals(401, refused.getStatus(), refused.getContentAsString());
        assertEquals(ALLOWED, refused.getHeader("Access-Control-Allow-Origin"));
        MockHttpServletResponse passed = fromOrigin("/api/v1/server/schema", READER, ALLOWED);
        assertEquals(200, passed.getStatus(), passed.getContentAsString());
        assertEquals(ALLOWED, passed.getHeader("Access-Control-Allow-Origin"));
    }

    @Test
    void anActualRequestFromAnotherOriginIsRefusedWithoutTheHeaders() throws Exception {
        assertRefusedWithoutCorsHeaders(fromOrigin("/api/v1/server", READER, OTHER));
    }
}
