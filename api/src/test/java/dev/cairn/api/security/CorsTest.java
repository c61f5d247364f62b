package dev.cairn.api.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.options;

import java.time.OffsetDateTime;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.config.Services;
import dev.cairn.api.ops.SchemaStatus;
import dev.cairn.engine.plugin.PluginRegistry;
import dev.cairn.storage.Storage;

/**
 * CORS as configured ({@code cairn.security.cors-origins}): a browser page of an allowed origin gets
 * the headers that let it call the API and read its answers, errors included; a page of any other
 * origin is refused, preflight and actual request alike, and gets none of them.
 * <p>
 * A slice of the server: the security filter chain of {@link SecurityConfiguration} in front of the
 * server's description ({@code /api/v1/server}, open, and {@code /api/v1/server/schema}, which needs the
 * role read). What CORS decides needs no data, so the token store stands in for the database: it knows
 * one token of role read; the database's own tokens are tested in {@link BearerTokensIT}.
 */
@WebMvcTest(
        useDefaultFilters = false,
        includeFilters =
                @ComponentScan.Filter(
                        type = FilterType.REGEX,
                        pattern = {
                            "dev\\.cairn\\.api\\.security\\.SecurityConfiguration",
                            "dev\\.cairn\\.api\\.server\\.ServerController"
                        }),
        properties = "cairn.security.cors-origins=" + CorsTest.ALLOWED)
class CorsTest {

    static final String ALLOWED = "https://lab.example.org";
    static final String OTHER = "https://elsewhere.example.com";
    static final String READER = TokenService.PREFIX + "reader";

    @TestConfiguration
    @EnableConfigurationProperties(CairnProperties.class)
    static class Settings {}

    @MockitoBean
    TokenService tokens;

    @MockitoBean
    Storage storage;

    @MockitoBean
    Services services;

    @MockitoBean
    PluginRegistry plugins;

    @MockitoBean
    SchemaStatus schema;

    @Autowired
    MockMvc mvc;

    @BeforeEach
    void aReader() {
        when(tokens.bySecret(READER))
                .thenReturn(Optional.of(new Token(
                        1,
                        UUID.randomUUID(),
                        1,
                        "reader@example.org",
                        "reader",
                        EnumSet.of(Role.READ),
                        OffsetDateTime.now(),
                        null,
                        null,
                        null)));
    }

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
        MockHttpServletResponse r = preflight(OTHER);
        assertEquals(403, r.getStatus(), r.getContentAsString());
        assertNull(r.getHeader("Access-Control-Allow-Origin"));
        assertNull(r.getHeader("Access-Control-Allow-Methods"));
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
        MockHttpServletResponse r = fromOrigin("/api/v1/server", READER, OTHER);
        assertEquals(403, r.getStatus(), r.getContentAsString());
        assertNull(r.getHeader("Access-Control-Allow-Origin"));
    }

    private MockHttpServletResponse preflight(String origin) throws Exception {
        return mvc.perform(options("/api/v1/processes")
                        .header("Origin", origin)
                        .header("Access-Control-Request-Method", "POST")
                        .header("Access-Control-Request-Headers", "authorization,content-type"))
                .andReturn()
                .getResponse();
    }

    private MockHttpServletResponse fromOrigin(String path, String token, String origin) throws Exception {
        var request = get(path).header("Origin", origin);
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return mvc.perform(request).andReturn().getResponse();
    }
}
