package dev.cairn.storage.db;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.output.MigrateResult;

/** The graph's schema, owned by the Flyway migrations in {@code db/migration}. */
public final class Migrations {

    private Migrations() {}

    /** Brings the schema up to date; returns the number of migrations applied. */
    public static int migrate(DataSource dataSource) {
        MigrateResult result = flyway(dataSource).migrate();
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

    static Flyway flyway(DataSource dataSource) {
        return Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .failOnMissingLocations(true)
                .load();
    }
}
