package dev.cairn.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;

/**
 * The OpenAPI document describes every endpoint of computers, codes, groups, users, tokens and
 * statistics, storage and archives: a tag with a description, a summary, every parameter described, and an example for
 * every JSON request body.
 */
class AdminEndpointsDocumentedIT extends ApiTest {

    private static final Map<String, Set<String>> ENDPOINTS = Map.ofEntries(
            Map.entry("/api/v1/computers", Set.of("get", "post")),
            Map.entry("/api/v1/computers/{computer}", Set.of("get", "delete")),
            Map.entry("/api/v1/computers/{computer}/enable", Set.of("post")),
            Map.entry("/api/v1/computers/{computer}/disable", Set.of("post")),
            Map.entry("/api/v1/computers/{computer}/test", Set.of("post")),
            Map.entry("/api/v1/codes", Set.of("get", "post")),
            Map.entry("/api/v1/codes/{code}", Set.of("get", "delete")),
            Map.entry("/api/v1/groups", Set.of("get", "post")),
            Map.entry("/api/v1/groups/{group}", Set.of("get", "patch", "delete")),
            Map.entry("/api/v1/groups/{group}/nodes", Set.of("get", "post")),
            Map.entry("/api/v1/users", Set.of("get", "post")),
            Map.entry("/api/v1/users/{email}", Set.of("get", "patch")),
            Map.entry("/api/v1/tokens", Set.of("get", "post")),
            Map.entry("/api/v1/tokens/{uuid}", Set.of("get")),
            Map.entry("/api/v1/tokens/{uuid}/revoke", Set.of("post")),
            Map.entry("/api/v1/statistics", Set.of("get")),
            Map.entry("/api/v1/storage", Set.of("get")),
            Map.entry("/api/v1/storage/maintenance", Set.of("post")),
            Map.entry("/api/v1/storage/validation", Set.of("post")),
            Map.entry("/api/v1/storage/backups", Set.of("post")),
            Map.entry("/api/v1/storage/attribute-indexes", Set.of("get", "post", "delete")),
            Map.entry("/api/v1/archive", Set.of("get", "post")),
            Map.entry("/api/v1/archive/inspection", Set.of("post")));

    private static final Set<String> TAGS = Set.of(
            "computers",
            "codes",
            "groups",
            "users",
            "tokens",
            "statistics",
            "storage",
            "attribute indexes",
            "archives");

    @Test
    void everyEndpointIsDocumented() {
        Api.Response r = api(null).get("/v3/api-docs");
        assertEquals(200, r.status(), r.toString());
        JsonNode doc = r.json();
        List<String> tags = new ArrayList<>();
        doc.get("tags").forEach(t -> {
            if (TAGS.contains(t.get("name").asString())) {
                tags.add(t.get("name").asString());
                assertFalse(t.get("description").asString().isBlank(), t.toString());
            }
        });
        assertEquals(TAGS.size(), tags.size(), "tags " + tags);
        List<String> problems = new ArrayList<>();
        ENDPOINTS.forEach((path, methods) -> {
            JsonNode item = doc.get("paths").get(path);
            if (item == null) {
                problems.add(path + " is missing");
                return;
            }
            for (String method : methods) {
                JsonNode op = item.get(method);
                String where = method.toUpperCase() + " " + path;
                if (op == null) {
                    problems.add(where + " is missing");
                    continue;
                }
                if (!op.has("summary") || op.get("summary").asString().isBlank()) {
                    problems.add(where + " has no summary");
                }
                if (!op.has("tags") || !TAGS.contains(op.get("tags").get(0).asString())) {
                    problems.add(where + " has none of the tags " + TAGS);
                }
                if (op.has("parameters")) {
                    op.get("parameters").forEach(p -> {
                        if (!p.has("description")
                                || p.get("description").asString().isBlank()) {
                            problems.add(where + ": parameter " + p.get("name").asString() + " has no description");
                        }
                    });
                }
                JsonNode json = op.path("requestBody").path("content").path("application/json");
                if (!json.isMissingNode() && !json.has("examples") && !json.has("example")) {
                    problems.add(where + ": the JSON request body has no example");
                }
            }
        });
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }
}
