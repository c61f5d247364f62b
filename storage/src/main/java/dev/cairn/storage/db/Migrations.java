package dev.cairn.storage.db;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.output.MigrateResult;

/** The graph's schema, owned by the Flyway migrations in {@code db/migration}. */
public final class Migrations {

    private Migrations() {}

    /**
     * One migration as the schema history knows it.
     *
     * @param version     its version ({@code 12})
     * @param description what it does ({@code node type ctime index})
     * @param installedOn when it was applied; null while pending
     */
    public record Migration(String version, String description, Instant installedOn) {}

    /**
     * The schema's state: the version it is at and what this build would still apply.
     *
     * @param version the version of the last migration applied; null on an empty database
     * @param applied the migrations applied, oldest first
     * @param pending the migrations this build holds that are not applied yet, in the order they would be
     */
    public record Status(String version, List<Migration> applied, List<Migration> pending) {}

    /**
     * Brings the schema up to date; returns the number of migrations applied. Refuses a schema that a newer
     * build migrated ({@link SchemaTooNewException}): this build's code may not read or write it right.
     */
    public static int migrate(DataSource dataSource) {
        Flyway flyway = flyway(dataSource);
        refuseNewer(flyway);
        MigrateResult result = flyway.migrate();
        return result.migrationsExecuted;
    }

    /** Brings an empty or older schema up to {@code version} and no further (a restore loads data of that version). */
    public static void migrateTo(DataSource dataSource, String version) {
        Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .failOnMissingLocations(true)
                .target(version)
                .load()
                .migrate();
    }

    /** The schema version of the database, or null when no migration ran there. */
    public static String currentVersion(DataSource dataSource) {
        MigrationInfo current = flyway(dataSource).info().current();
        return current == null ? null : current.getVersion().getVersion();
    }

    /** The newest schema version this build knows. */
    public static String latestVersion(DataSource dataSource) {
        MigrationInfo[] all = flyway(dataSource).info().all();
        return all.length == 0 ? null : all[all.length - 1].getVersion().getVersion();
    }

    /** Compares two schema versions ("9" &lt; "10"). */
    public static int compareVersions(String a, String b) {
        return MigrationVersion.fromVersion(a).compareTo(MigrationVersion.fromVersion(b));
    }

    /** {@link #migrate(DataSource)} of the database at {@code config}, on a connection of its own. */
    public static int migrate(DatabaseConfig config) {
        Flyway flyway = flyway(config);
        refuseNewer(flyway);
        return flyway.migrate().migrationsExecuted;
    }

    /**
     * Flyway leaves migrations it does not know ("future" ones) alone by default, so an older build would start
     * on a newer schema and fail later, or worse, write what the newer code no longer reads.
     */
    private static void refuseNewer(Flyway flyway) {
        String newest = null;
        String known = null;
        for (MigrationInfo m : flyway.info().all()) {
            if (m.getVersion() == null) {
                continue;
            }
            if (m.getState() == MigrationState.FUTURE_SUCCESS || m.getState() == MigrationState.FUTURE_FAILED) {
                newest = m.getVersion().getVersion();
            } else if (m.getState().isResolved()) {
                known = m.getVersion().getVersion();
            }
        }
        if (newest != null) {
            throw new SchemaTooNewException(newest, known);
        }
    }

    /** The schema's version, the migrations applied and those pending; changes nothing. */
    public static Status status(DataSource dataSource) {
        return status(flyway(dataSource));
    }

    /** {@link #status(DataSource)} of the database at {@code config}, on a connection of its own. */
    public static Status status(DatabaseConfig config) {
        return status(flyway(config));
    }

    private static Status status(Flyway flyway) {
        MigrationInfoService info = flyway.info();
        List<Migration> applied = new ArrayList<>();
        for (MigrationInfo m : info.applied()) {
            if (m.getVersion() != null) {
                applied.add(new Migration(
                        m.getVersion().getVersion(),
                        m.getDescription(),
                        m.getInstalledOn() == null ? null : m.getInstalledOn().toInstant()));
            }
        }
        List<Migration> pending = new ArrayList<>();
        for (MigrationInfo m : info.pending()) {
            pending.add(new Migration(
                    m.getVersion() == null ? null : m.getVersion().getVersion(), m.getDescription(), null));
        }
        MigrationInfo current = info.current();
        String version = current == null || current.getVersion() == null
                ? null
                : current.getVersion().getVersion();
        return new Status(version, List.copyOf(applied), List.copyOf(pending));
    }

    private static Flyway flyway(DatabaseConfig config) {
        return Flyway.configure()
                .dataSource(config.jdbcUrl(), config.user(), config.password())
                .locations("classpath:db/migration")
                .failOnMissingLocations(true)
                .load();
    }

    static Flyway flyway(DataSource dataSource) {
        return Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .failOnMissingLocations(true)
                .load();
    }
}
