package dev.cairn.api.ops;

import java.time.Instant;
import java.util.List;

import org.springframework.stereotype.Component;

import dev.cairn.engine.Engine;
import dev.cairn.storage.db.Migrations;

/**
 * The version of the database schema the server runs on, for operators: the migrations Flyway applied
 * and those this server holds that are not applied yet.
 */
@Component
public class SchemaStatus {

    /**
     * The database schema: the version it is at, and the migrations applied and pending.
     *
     * @param version the version of the last migration applied
     * @param applied the migrations applied, oldest first
     * @param pending the migrations this server holds that are not applied: none while it runs, as it
     *                migrates at its start
     */
    public record SchemaView(String version, List<MigrationView> applied, List<MigrationView> pending) {}

    /** One migration; {@code installedOn} is null while it is pending. */
    public record MigrationView(String version, String description, Instant installedOn) {}

    private final Engine engine;

    SchemaStatus(Engine engine) {
        this.engine = engine;
    }

    /** The schema as the database holds it now. */
    public SchemaView read() {
        Migrations.Status status = Migrations.status(engine.database().dataSource());
        return new SchemaView(status.version(), views(status.applied()), views(status.pending()));
    }

    private static List<MigrationView> views(List<Migrations.Migration> migrations) {
        return migrations.stream()
                .map(m -> new MigrationView(m.version(), m.description(), m.installedOn()))
                .toList();
    }
}
