package dev.cairn.api.openapi;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The document's info block and the bearer scheme that {@link ProblemResponses} puts on every
 * operation under {@code /api/v1} but the open ones.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    /** The name of the security scheme in the document's components. */
    static final String BEARER = "bearer";

    private static final String DESCRIPTION = """
            The REST API of a Cairn server: the provenance graph (nodes, links, files, queries), processes \
            (launch, list, control, follow), computers, codes, groups and users, archives.

            Every request under `/api/v1` but `GET /api/v1/server` needs a bearer token: a Cairn token \
            (`cairn_…`) or, when the server accepts them, a JWT of its OpenID Connect issuer. Tokens carry \
            roles: `read` for reading, `submit` for launching and changing data, `admin` for computers, \
            codes, users, tokens, storage and archive imports; each includes the ones before it.

            Every error is an RFC 9457 problem (`application/problem+json`) whose `type` tells its kind \
            (`urn:cairn:problem:not-found`, `invalid-input`, `conflict`, `unavailable`, `unauthenticated`, \
            `forbidden`, `read-only`, `too-large`, `internal`) and whose `detail` says what was wrong. A \
            503 (`unavailable`, with `Retry-After`) means the database or the broker is away: the same \
            request may succeed once it is back.""";

    /**
     * The project's license, the repository's LICENSE. Named with its text's address: OpenAPI 3.1 takes
     * a URL or an SPDX identifier, not both, and Swagger UI links the name to the URL.
     */
    static final String LICENSE = "Apache License 2.0";

    static final String LICENSE_URL = "https://www.apache.org/licenses/LICENSE-2.0";

    @Bean
    OpenAPI cairnOpenApi() {
        String version = OpenApiConfiguration.class.getPackage().getImplementationVersion();
        return new OpenAPI()
                .info(new Info()
                        .title("Cairn API")
                        .version(version == null ? "development" : version)
                        .description(DESCRIPTION)
                        .license(new License().name(LICENSE).url(LICENSE_URL)))
                .components(new Components()
                        .addSecuritySchemes(
                                BEARER,
                                new SecurityScheme()
                                        .type(SecurityScheme.Type.HTTP)
                                        .scheme("bearer")
                                        .bearerFormat("cairn_… or JWT")
                                        .description("A Cairn token (`cairn_` and 43 characters), or a JWT of the"
                                                + " server's OpenID Connect issuer when it accepts them")));
    }
}
