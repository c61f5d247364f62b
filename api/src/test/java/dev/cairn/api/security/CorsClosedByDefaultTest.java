package dev.cairn.api.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.context.TestPropertySource;

/**
 * With no origin set ({@code cairn.security.cors-origins}, the default), no page of another origin may
 * call the API: a preflight and an actual request are refused with 403 and none of the headers that
 * would let a page read the answer, whatever the token. A {@link SecuritySlice}.
 */
@TestPropertySource(properties = "cairn.security.cors-origins=")
class CorsClosedByDefaultTest extends SecuritySlice {

    static final String PAGE = "https://lab.example.org";

    @Test
    void aPreflightFromAnyOriginIsRefusedWithoutTheHeaders() throws Exception {
        assertRefusedWithoutCorsHeaders(preflight(PAGE));
    }

    @Test
    void anActualRequestFromAnyOriginIsRefusedWithoutTheHeadersWhateverTheToken() throws Exception {
        for (String token : new String[] {null, READER}) {
            assertRefusedWithoutCorsHeaders(fromOrigin("/api/v1/server", token, PAGE));
        }
    }

    @Test
    void aRequestWithoutAnOriginIsNoCorsRequestAndIsAnswered() throws Exception {
        MockHttpServletResponse r =
                mvc.perform(get("/api/v1/server")).andReturn().getResponse();
        assertEquals(200, r.getStatus(), r.getContentAsString());
        assertNull(r.getHeader("Access-Control-Allow-Origin"));
    }
}
