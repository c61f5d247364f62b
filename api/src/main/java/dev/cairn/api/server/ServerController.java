package dev.cairn.api.server;

import java.util.List;
import java.util.Locale;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.config.Services;
import dev.cairn.api.ops.SchemaStatus;
import dev.cairn.api.ops.SchemaStatus.SchemaView;
import dev.cairn.engine.plugin.PluginRegistry;

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

    private final CairnProperties properties;
    private final Services services;
    private final PluginRegistry plugins;
    private final SchemaStatus schema;

    ServerController(CairnProperties properties, Services services, PluginRegistry plugins, SchemaStatus schema) {
        this.properties = properties;
        this.services = services;
        this.plugins = plugins;
        this.schema = schema;
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
                plugins.all().size());
    }

    @GetMapping("/schema")
    @Operation(
            operationId = "showSchema",
            summary = "The database schema's version and its migrations, applied and pending (Flyway)",
            description = "The server migrates the schema when it starts, so nothing is pending while it runs"
                    + " unless another server changed the schema since.")
    SchemaView schema() {
        return schema.read();
    }
}
