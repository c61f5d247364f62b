package dev.cairn.api.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.options;

import java.time.OffsetDateTime;
import java.util.EnumSet;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.context.annotation.Import;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.config.Services;
import dev.cairn.api.ops.SchemaStatus;
import dev.cairn.engine.plugin.PluginRegistry;
import dev.cairn.storage.Storage;

/**
 * A slice of the server for what its security decides without data: the filter chain of
 * {@link SecurityConfiguration} in front of the server's description ({@code /api/v1/server}, open,
 * and {@code /api/v1/server/schema}, which needs the role read), on MockMvc, with no database, broker or
 * port. The token store stands in for the database and knows one token, {@link #READER}, of role read;
 * the database's own tokens are tested in {@link BearerTokensIT}. Subclasses set the settings they test.
 */
@WebMvcTest(
        useDefaultFilters = false,
        includeFilters =
                @ComponentScan.Filter(
                        type = FilterType.REGEX,
                        pattern = {
                            "dev\\.cairn\\.api\\.security\\.SecurityConfiguration",
                            "dev\\.cairn\\.api\\.server\\.ServerController"
                        }))
@Import(SecuritySlice.Settings.class)
abstract class SecuritySlice {

    static final String READER = TokenService.PREFIX + "reader";

    /** The server's settings, which the slice's scan leaves out with the rest of the wiring. */
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

    /** A browser's preflight of a POST to {@code /api/v1/processes} from a page of {@code origin}. */
    MockHttpServletResponse preflight(String origin) throws Exception {
        return mvc.perform(options("/api/v1/processes")
                        .header("Origin", origin)
                        .header("Access-Control-Request-Method", "POST")
                        .header("Access-Control-Request-Headers", "authorization,content-type"))
                .andReturn()
                .getResponse();
    }

    /** A GET of {@code path} from a page of {@code origin}, with {@code token} (null: none). */
    MockHttpServletResponse fromOrigin(String path, String token, String origin) throws Exception {
        var request = get(path).header("Origin", origin);
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return mvc.perform(request).andReturn().getResponse();
    }

    /** A CORS refusal: 403, and none of the headers that would let a page read the answer or send more. */
    static void assertRefusedWithoutCorsHeaders(MockHttpServletResponse r) throws Exception {
        assertEquals(403, r.getStatus(), r.getContentAsString());
        assertNull(r.getHeader("Access-Control-Allow-Origin"));
        assertNull(r.getHeader("Access-Control-Allow-Methods"));
    }
}
