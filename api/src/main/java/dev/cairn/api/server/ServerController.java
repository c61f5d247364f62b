package dev.cairn.api.server;

import java.time.Instant;
import java.util.List;
import java.util.Locale;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.config.Services;
import dev.cairn.engine.Engine;
import dev.cairn.storage.db.Migrations;

/**
 * What this server is: its version, roles, and whether it runs embedded services (open to all); the
 * database schema's version (a token with a role).
 */
@RestController
@RequestMapping("/api/v1/server")
@Tag(name = "server", description = "What this server is")
class ServerController {

    /** The server's description. */
    record ServerInfo(
            String name,
            String version,
            String apiVersion,
            List<String> roles,
            boolean embeddedDatabase,
            boolean embeddedBroker,
            int processTypes) {}

    /**
     * The database schema: the version it is at, and the migrations applied and pending.
     *
     * @param version the version of the last migration applied
     * @param applied the migrations applied, oldest first
     * @param pending the migrations this server holds that are not applied: none while it runs, as it
     *                migrates at its start
     */
    record SchemaView(String version, List<MigrationView> applied, List<MigrationView> pending) {}

    /** One migration; {@code installedOn} is null while it is pending. */
    record MigrationView(String version, String description, Instant installedOn) {}

    private final CairnProperties properties;
    private final Services services;
    private final Engine engine;

    ServerController(CairnProperties properties, Services services, Engine engine) {
        this.properties = properties;
        this.services = services;
        this.engine = engine;
    }

    @GetMapping
    @Operation(operationId = "showServer", summary = "The server's version, roles and services; needs no token")
    ServerInfo info() {
        String version = ServerController.class.getPackage().getImplementationVersion();
        return new ServerInfo(
                "cairn",
                version == null ? "development" : version,
                "v1",
                properties.roles().stream()
                        .map(r -> r.name().toLowerCase(Locale.ROOT))
                        .sorted()
                        .toList(),
                services.hasEmbeddedDatabase(),
                services.hasEmbeddedBroker(),
                engine.plugins().all().size());
    }

    @GetMapping("/schema")
    @Operation(
            operationId = "showSchema",
            summary = "The database schema's version and its migrations, applied and pending (Flyway)",
            description = "The server migrates the schema when it starts, so nothing is pending while it runs"
                    + " unless another server changed the schema since.")
    SchemaView schema() {
        Migrations.Status status = Migrations.status(engine.database().dataSource());
        return new SchemaView(status.version(), views(status.applied()), views(status.pending()));
    }

    private static List<MigrationView> views(List<Migrations.Migration> migrations) {
        return migrations.stream()
                .map(m -> new MigrationView(m.version(), m.description(), m.installedOn()))
                .toList();
    }
}
