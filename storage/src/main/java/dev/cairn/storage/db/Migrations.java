package dev.cairn.storage.db;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/** The graph's schema, owned by the Flyway migrations in {@code db/migration}. */
public final class Migrations {

    private Migrations() {}

    /** Brings the schema up to date; returns the number of migrations applied. */
    public static int migrate(DataSource dataSource) {
        MigrateResult result = flyway(dataSource).migrate();
        return result.migrationsExecuted;
    }

    static Flyway flyway(DataSource dataSource) {
        return Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .failOnMissingLocations(true)
                .load();
    }
}
