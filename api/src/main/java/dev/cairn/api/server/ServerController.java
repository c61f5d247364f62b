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
import dev.cairn.engine.Engine;

/** What this server is: its version, roles, and whether it runs embedded services. Open to all. */
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
    private final Engine engine;

    ServerController(CairnProperties properties, Services services, Engine engine) {
        this.properties = properties;
        this.services = services;
        this.engine = engine;
    }

    @GetMapping
    @Operation(summary = "The server's version, roles and services; needs no token")
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
}
