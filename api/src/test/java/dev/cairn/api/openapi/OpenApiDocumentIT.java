package dev.cairn.api.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;

/**
 * The OpenAPI document holds every operation of the server to the same standard, whoever wrote it:
 * OpenAPI 3.1; every operation has a summary and its error responses as problems with an example
 * (401 and 403 with the bearer scheme where a token is needed, 413 where it takes an upload); every
 * parameter is described; every schema property is described or typed. The checks walk the whole
 * document, so they hold the resources of every branch once merged; a probe resource of this test
 * stands for them here, next to {@code /api/v1/server}, the one resource of this branch.
 */
@Import(OpenApiDocumentIT.ProbeResource.class)
class OpenApiDocumentIT extends ApiTest {

    private static final List<String> METHODS =
            List.of("get", "put", "post", "delete", "patch", "head", "options", "trace");
    private static final Set<String> OPEN = ProblemResponses.OPEN;
    private static final Set<String> UPLOADS = Set.of("multipart/form-data", "application/octet-stream");

    @Test
    void theDocumentIsOpenApi31WithTheInfoTheBearerSchemeAndTheProblemSchema() {
        JsonNode doc = document();
        assertTrue(
                doc.get("openapi").asString().startsWith("3.1"),
                doc.get("openapi").toString());
        JsonNode info = doc.get("info");
        assertEquals("Cairn API", info.get("title").asString());
        assertFalse(info.get("version").asString().isBlank());
        assertTrue(info.get("description").asString().contains("bearer token"));
        assertFalse(info.get("license").get("name").asString().isBlank());
        JsonNode bearer = doc.get("components").get("securitySchemes").get("bearer");
        assertEquals("http", bearer.get("type").asString());
        assertEquals("bearer", bearer.get("scheme").asString());
        JsonNode problem = doc.get("components").get("schemas").get("Problem");
        for (String field : List.of("type", "title", "status", "detail", "instance")) {
            assertTrue(problem.get("properties").has(field), field);
        }
    }

    @Test
    void everyOperationHasASummaryAndItsErrorsAsProblemsWithExamples() {
        JsonNode doc = document();
        List<String> wrong = new ArrayList<>();
        int operations = 0;
        int secured = 0;
        int uploads = 0;
        for (var path : doc.get("paths").properties()) {
            for (String method : METHODS) {
                JsonNode op = path.getValue().get(method);
                if (op == null) {
                    continue;
                }
                operations++;
                String where = method.toUpperCase(Locale.ROOT) + " " + path.getKey();
                if (!op.has("summary") || op.get("summary").asString().isBlank()) {
                    wrong.add(where + " has no summary");
                }
                List<String> errors = new ArrayList<>(List.of("400", "404", "409", "500", "503"));
                boolean needsToken = path.getKey().startsWith("/api/v1/") && !OPEN.contains(path.getKey());
                if (needsToken) {
                    secured++;
                    errors.addAll(List.of("401", "403"));
                    if (!op.has("security") || !op.get("security").toString().contains("\"bearer\"")) {
                        wrong.add(where + " needs a token but names no bearer security");
                    }
                } else if (op.has("security") && !op.get("security").isEmpty()) {
                    wrong.add(where + " needs no token but names security " + op.get("security"));
                }
                if (isUpload(op)) {
                    uploads++;
                    errors.add("413");
                }
                for (String status : errors) {
                    JsonNode response = op.get("responses").get(status);
                    if (response == null) {
                        wrong.add(where + " has no " + status + " response");
                        continue;
                    }
                    JsonNode problem = response.path("content").path("application/problem+json");
                    if (!problem.path("schema").path("$ref").asString("").endsWith("/Problem")) {
                        wrong.add(where + " " + status + " is not a Problem");
                    }
                    if (problem.path("examples").isEmpty()
                            && problem.path("example").isMissingNode()) {
                        wrong.add(where + " " + status + " has no example");
                    }
                }
                if (!needsToken && op.get("responses").has("401")) {
                    wrong.add(where + " needs no token but documents a 401");
                }
                List<JsonNode> parameters = new ArrayList<>();
                path.getValue().path("parameters").forEach(parameters::add);
                op.path("parameters").forEach(parameters::add);
                for (JsonNode p : parameters) {
                    JsonNode parameter = resolve(doc, p);
                    if (parameter.path("description").asString("").isBlank()) {
                        wrong.add(
                                where + " parameter '" + parameter.path("name").asString() + "' has no description");
                    }
                }
            }
        }
        for (var schema : doc.get("components").get("schemas").properties()) {
            for (var property : schema.getValue().path("properties").properties()) {
                JsonNode p = property.getValue();
                boolean typed = p.has("type")
                        || p.has("types")
                        || p.has("$ref")
                        || p.has("allOf")
                        || p.has("oneOf")
                        || p.has("anyOf")
                        || p.has("const")
                        || p.has("enum");
                if (!typed && p.path("description").asString("").isBlank()) {
                    wrong.add("schema " + schema.getKey() + " property '" + property.getKey()
                            + "' is neither typed nor described");
                }
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
        assertTrue(
                operations >= 3 && secured >= 2 && uploads >= 1,
                "the walk met " + operations + " operations, " + secured + " secured, " + uploads + " uploads");
    }

    /**
     * What client generators need of the document: operation ids that name what they do (a
     * generator makes its functions and modules of them), a concrete media type for every body
     * (openapi-python-client drops a response whose media type is a wildcard), and references to
     * components only, never into another schema's {@code $defs} (it drops such a schema).
     */
    @Test
    void everyOperationIsNamedEveryBodyHasAMediaTypeAndEveryReferenceAComponent() {
        JsonNode doc = document();
        List<String> wrong = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (var path : doc.get("paths").properties()) {
            for (String method : METHODS) {
                JsonNode op = path.getValue().get(method);
                if (op == null) {
                    continue;
                }
                String where = method.toUpperCase(Locale.ROOT) + " " + path.getKey();
                String id = op.path("operationId").asString("");
                if (!id.matches("[a-z]+[A-Z][A-Za-z]*|[a-z]+")) {
                    wrong.add(where + " has the operation id '" + id + "', not a lowerCamel name of what it does");
                } else if (!ids.add(id)) {
                    wrong.add(where + " has the operation id '" + id + "' of another operation");
                }
                List<String> types =
                        new ArrayList<>(op.path("requestBody").path("content").propertyNames());
                op.path("responses").forEach(r -> types.addAll(r.path("content").propertyNames()));
                if (types.stream().anyMatch(t -> t.contains("*"))) {
                    wrong.add(where + " declares a body of media type " + types);
                }
            }
        }
        List<String> refs = new ArrayList<>();
        collectRefs(doc, refs);
        refs.stream()
                .filter(ref -> !ref.matches("#/components/(schemas|responses|parameters|examples|requestBodies)/[^/]+"))
                .forEach(ref -> wrong.add("a reference into a schema rather than to a component: " + ref));
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    private static void collectRefs(JsonNode node, List<String> into) {
        if (node.isObject()) {
            for (var e : node.properties()) {
                if (e.getKey().equals("$ref") && e.getValue().isString()) {
                    into.add(e.getValue().asString());
                } else {
                    collectRefs(e.getValue(), into);
                }
            }
        } else if (node.isArray()) {
            node.forEach(n -> collectRefs(n, into));
        }
    }

    @Test
    void theServerDescriptionNeedsNoTokenAndSwaggerUiShowsTheDocument() {
        JsonNode server = document().get("paths").get("/api/v1/server").get("get");
        assertTrue(!server.has("security") || server.get("security").isEmpty(), server.toString());
        assertTrue(server.get("responses").has("503"));
        Api.Response ui = api(null).get("/swagger-ui/index.html");
        assertEquals(200, ui.status(), ui.toString());
        assertTrue(ui.body().contains("Swagger UI"));
        Api.Response config = api(null).get("/v3/api-docs/swagger-config");
        assertEquals(200, config.status(), config.toString());
    }

    private JsonNode document() {
        Api.Response r = api(null).get("/v3/api-docs");
        assertEquals(200, r.status(), r.toString());
        return r.json();
    }

    private static boolean isUpload(JsonNode op) {
        for (String type : op.path("requestBody").path("content").propertyNames()) {
            if (UPLOADS.contains(type)) {
                return true;
            }
        }
        return false;
    }

    /** A parameter, or the component it refers to. */
    private static JsonNode resolve(JsonNode doc, JsonNode parameter) {
        String ref = parameter.path("$ref").asString("");
        if (ref.startsWith("#/components/parameters/")) {
            return doc.get("components").get("parameters").get(ref.substring("#/components/parameters/".length()));
        }
        return parameter;
    }

    /** A resource as the others write theirs: an operation with a path parameter, and an upload. */
    @RestController
    @RequestMapping("/api/v1/openapi-probe")
    @Tag(name = "openapi-probe", description = "A resource of the OpenAPI document's test")
    static class ProbeResource {

        /** A probe's description. */
        record Probe(
                @Schema(description = "The probe's name", example = "first")
                String name) {}

        @GetMapping("/{name}")
        @Operation(
                operationId = "showProbe",
                summary = "A probe by name",
                description = "Answers with the name it was given.")
        Probe get(@Parameter(description = "The probe's name", example = "first") @PathVariable String name) {
            return new Probe(name);
        }

        @PostMapping(path = "/{name}/files", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
        @Operation(
                operationId = "uploadProbeFile",
                summary = "Uploads a file to a probe",
                description = "Takes the file and forgets it.")
        Probe upload(
                @Parameter(description = "The probe's name", example = "first") @PathVariable String name,
                @Parameter(description = "The file") @RequestPart MultipartFile file) {
            return new Probe(name);
        }
    }
}
