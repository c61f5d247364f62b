package dev.cairn.api.openapi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;
import org.springframework.stereotype.Component;

/**
 * Gives every operation of the document the errors it can answer with, as RFC 9457 problems with an
 * example each, so a resource documents only its success and its own particular errors: 400, 404,
 * 409, 500 and 503 everywhere; 401 and 403 with the bearer scheme wherever a token is needed (all of
 * {@code /api/v1} but the open paths); 415 where the operation takes a body; 413 where the body is an
 * upload. A response the
 * operation describes itself keeps its description; its content is the problem schema.
 */
@Component
class ProblemResponses implements GlobalOpenApiCustomizer {

    /** The problem schema's name in the document's components. */
    static final String PROBLEM = "Problem";

    static final String PROBLEM_JSON = "application/problem+json";

    /** Paths under {@code /api/v1} that need no token (SecurityConfiguration permits them to all). */
    static final Set<String> OPEN = Set.of("/api/v1/server");

    private static final Set<String> UPLOADS = Set.of("multipart/form-data", "application/octet-stream");

    /** An error response: its status, what it means, and an example. */
    private record Kind(String status, String description, String type, String title, String detail) {}

    private static final Kind INVALID_INPUT = new Kind(
            "400",
            "Invalid input: a parameter or the body is not what this operation takes; the detail names it.",
            "invalid-input",
            "Invalid input",
            "parameter 'limit': 'ten' is not an integer");
    private static final Kind UNAUTHENTICATED = new Kind(
            "401",
            "No bearer token, or one that was refused (unknown, expired, revoked, or a JWT that failed its checks).",
            "unauthenticated",
            "Unauthenticated",
            "this needs a bearer token (Authorization: Bearer cairn_…)");
    private static final Kind FORBIDDEN = new Kind(
            "403",
            "The token's roles do not allow this operation (type forbidden), or the server is read-only and"
                    + " this would change something (type read-only).",
            "forbidden",
            "Forbidden",
            "the roles of this token, [read], do not allow POST /api/v1/processes (reading needs read; launching"
                    + " and changing data submit; computers, codes, users, tokens, storage and imports admin)");
    private static final Kind NOT_FOUND = new Kind(
            "404",
            "What the path or the body names does not exist.",
            "not-found",
            "Not found",
            "no node has the uuid 0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55");
    private static final Kind CONFLICT = new Kind(
            "409",
            "The request contradicts what is stored (a name taken, a node prefix that names several nodes, a"
                    + " change to something sealed).",
            "conflict",
            "Conflict",
            "the prefix 0190c1a2 names more than one node (0190c1a2-5b1e-…, 0190c1a2-77d0-…): give more of the uuid");
    private static final Kind TOO_LARGE = new Kind(
            "413",
            "The upload is larger than the server takes (cairn.limits.upload-max-size).",
            "too-large",
            "Content too large",
            "the upload is larger than the server takes (4294967296 bytes)");
    private static final Kind UNSUPPORTED_MEDIA_TYPE = new Kind(
            "415",
            "The body came without a Content-Type, or with one this operation does not take; the detail names"
                    + " the ones it takes.",
            "invalid-input",
            "Unsupported Media Type",
            "Content-Type 'text/plain' is not supported.");
    private static final Kind INTERNAL = new Kind(
            "500",
            "A fault of the server; its log has the details under the incident id the problem names.",
            "internal",
            "Internal error",
            "the server failed to answer; its log has the details under incident 5f0c1a2e-8a4b-4f7e-9d3c-1b2a3c4d5e6f");
    private static final Kind UNAVAILABLE = new Kind(
            "503",
            "The database or the broker is away; nothing was done. Try again after Retry-After seconds.",
            "unavailable",
            "Service unavailable",
            "checking a token: a service the server needs did not answer; try again shortly");

    @Override
    public void customise(OpenAPI openApi) {
        if (openApi.getComponents() == null) {
            openApi.setComponents(new Components());
        }
        // here, not with the document's other components: springdoc computes the schemas of the
        // controllers' types into the components, in place of those given with the document
        if (openApi.getComponents().getSchemas() == null
                || !openApi.getComponents().getSchemas().containsKey(PROBLEM)) {
            openApi.getComponents().addSchemas(PROBLEM, problemSchema());
        }
        if (openApi.getPaths() == null) {
            return;
        }
        openApi.getPaths().forEach((path, item) -> describe(path, item));
    }

    private static void describe(String path, PathItem item) {
        boolean secured = path.startsWith("/api/v1/") && !OPEN.contains(path);
        for (Operation operation : item.readOperations()) {
            if (operation.getResponses() == null) {
                operation.setResponses(new ApiResponses());
            }
            List<Kind> kinds = new ArrayList<>(List.of(INVALID_INPUT, NOT_FOUND, CONFLICT));
            if (secured) {
                boolean declared = operation.getSecurity() != null
                        && operation.getSecurity().stream().anyMatch(r -> r.containsKey(OpenApiConfiguration.BEARER));
                if (!declared) {
                    operation.addSecurityItem(new SecurityRequirement().addList(OpenApiConfiguration.BEARER));
                }
                kinds.add(UNAUTHENTICATED);
                kinds.add(FORBIDDEN);
            }
            if (operation.getRequestBody() != null) {
                kinds.add(UNSUPPORTED_MEDIA_TYPE);
            }
            if (isUpload(operation)) {
                kinds.add(TOO_LARGE);
            }
            kinds.add(INTERNAL);
            kinds.add(UNAVAILABLE);
            for (Kind kind : kinds) {
                add(operation.getResponses(), kind, path);
            }
        }
    }

    private static boolean isUpload(Operation operation) {
        return operation.getRequestBody() != null
                && operation.getRequestBody().getContent() != null
                && operation.getRequestBody().getContent().keySet().stream().anyMatch(UPLOADS::contains);
    }

    private static void add(ApiResponses responses, Kind kind, String path) {
        ApiResponse response = responses.get(kind.status());
        if (response == null) {
            response = new ApiResponse().description(kind.description());
            responses.addApiResponse(kind.status(), response);
        }
        if (response.getDescription() == null || response.getDescription().isBlank()) {
            response.setDescription(kind.description());
        }
        // an error is a problem whatever the operation declared: springdoc gives an annotated response
        // without content the operation's return type, which an error never has; one that names the
        // problem's media type alone gets its schema and an example
        if (response.getContent() == null || !response.getContent().containsKey(PROBLEM_JSON)) {
            response.setContent(new Content().addMediaType(PROBLEM_JSON, new MediaType()));
        }
        MediaType problem = response.getContent().get(PROBLEM_JSON);
        if (problem.getSchema() == null || problem.getSchema().get$ref() == null) {
            problem.setSchema(new Schema<>().$ref("#/components/schemas/" + PROBLEM));
        }
        if ((problem.getExamples() == null || problem.getExamples().isEmpty()) && problem.getExample() == null) {
            problem.addExamples(kind.type(), example(kind, path));
        }
        if (kind == UNAUTHENTICATED) {
            response.addHeaderObject(
                    "WWW-Authenticate",
                    new Header()
                            .description("Bearer: the scheme a token must come with")
                            .schema(string()));
        }
        if (kind == UNAVAILABLE) {
            response.addHeaderObject(
                    "Retry-After",
                    new Header()
                            .description("Seconds to wait before trying again")
                            .schema(integer()));
        }
    }

    private static Example example(Kind kind, String path) {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", "urn:cairn:problem:" + kind.type());
        problem.put("title", kind.title());
        problem.put("status", Integer.parseInt(kind.status()));
        problem.put("detail", kind.detail());
        problem.put("instance", path);
        if (kind == INTERNAL) {
            problem.put("incident", "5f0c1a2e-8a4b-4f7e-9d3c-1b2a3c4d5e6f");
        }
        return new Example().summary(kind.title()).value(problem);
    }

    /** RFC 9457's problem details, with Cairn's extensions. */
    private static Schema<?> problemSchema() {
        return new Schema<>()
                .type("object")
                .description("An RFC 9457 problem: what went wrong, for a program (type) and for a person (detail)")
                .addProperty(
                        "type",
                        string().format("uri")
                                .description("The kind of problem, one URI per kind (urn:cairn:problem:not-found, …)"))
                .addProperty(
                        "title",
                        string().description("The kind of problem in words; the same for every problem of a type"))
                .addProperty("status", integer().description("The HTTP status code"))
                .addProperty(
                        "detail", string().description("What was wrong with this request, and what would be valid"))
                .addProperty(
                        "instance",
                        string().format("uri-reference").description("The path of the request that met the problem"))
                .addProperty(
                        "problems",
                        new Schema<>()
                                .type("array")
                                .items(string())
                                .description("Invalid launch inputs: one problem per port or metadata key"))
                .addProperty(
                        "incident",
                        string().description("A 500's incident id, under which the server's log has the details"))
                .required(List.of("type", "title", "status", "detail"));
    }

    private static Schema<Object> string() {
        return new Schema<>().type("string");
    }

    private static Schema<Object> integer() {
        return new Schema<>().type("integer");
    }
}
