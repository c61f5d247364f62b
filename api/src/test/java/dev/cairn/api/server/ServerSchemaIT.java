package dev.cairn.api.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;

/**
 * {@code GET /api/v1/server/schema}: the schema's version and its migrations as Flyway's history has
 * them (what {@code cairn db status} prints), to a token with a role; nothing pending on a server that
 * migrated at its start.
 */
class ServerSchemaIT extends ApiTest {

    @Test
    void theSchemaIsAtTheLastMigrationWithEveryOneAppliedAndNonePending() {
        List<Integer> versions = migrationVersions();

        Api.Response r = api(token(Role.READ)).get("/api/v1/server/schema");

        assertEquals(200, r.status(), r.toString());
        JsonNode schema = r.json();
        assertEquals(Integer.toString(versions.getLast()), schema.get("version").asString(), r.toString());
        assertTrue(schema.get("pending").isEmpty(), r.toString());
        List<Integer> applied = new ArrayList<>();
        schema.get("applied").forEach(m -> {
            applied.add(Integer.parseInt(m.get("version").asString()));
            assertFalse(m.get("description").asString().isBlank(), m.toString());
            assertFalse(m.get("installedOn").isNull(), m.toString());
        });
        assertEquals(versions, applied, "oldest first");
        assertEquals(401, api(null).get("/api/v1/server/schema").status(), "a token is needed");
    }

    /** The versions of the storage module's migrations, in order. */
    private static List<Integer> migrationVersions() {
        try (Stream<Path> files = Files.list(Path.of("../storage/src/main/resources/db/migration"))) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.matches("V\\d+__.*\\.sql"))
                    .map(n -> Integer.parseInt(n.substring(1, n.indexOf("__"))))
                    .sorted(Comparator.naturalOrder())
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
