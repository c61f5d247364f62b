package dev.cairn.api.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;

/**
 * The OpenAPI document as the whole server serves it, written to {@code target/openapi.json} for the
 * documentation site (its reference renders it with Swagger UI, see {@code .ci/docs}). The document is
 * taken from a running server, so the site shows what the server answers, never a copy kept by hand.
 */
class OpenApiPublishedIT extends ApiTest {

    /** Where the site's build takes it from: the api module's build directory. */
    private static final Path PUBLISHED = Path.of("target", "openapi.json");

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    @Test
    void theDocumentDeclaresTheProjectsLicense() {
        JsonNode license = document().get("info").get("license");
        assertEquals(OpenApiConfiguration.LICENSE, license.get("name").asString());
        assertEquals(OpenApiConfiguration.LICENSE_URL, license.get("url").asString());
    }

    @Test
    void theDocumentIsWrittenForTheDocumentationSite() throws IOException {
        ObjectNode doc = (ObjectNode) document();
        assertTrue(doc.get("paths").has("/api/v1/nodes"), "the document has the resources");
        // The test's server listens on a random port; a reader's runs where `cairn up` puts it
        doc.putArray("servers")
                .addObject()
                .put("url", "http://localhost:8080")
                .put("description", "a server started with `cairn up`");
        Files.createDirectories(PUBLISHED.toAbsolutePath().getParent());
        Files.writeString(PUBLISHED, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(doc));
        assertEquals(doc, JSON.readTree(Files.readString(PUBLISHED)));
    }

    private JsonNode document() {
        Api.Response r = api(null).get("/v3/api-docs");
        assertEquals(200, r.status(), r.toString());
        return r.json();
    }
}
