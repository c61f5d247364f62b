package dev.cairn.api.config;

import dev.cairn.api.embedded.EmbeddedDatabase;
import dev.cairn.storage.db.DatabaseConfig;

/**
 * The database of the settings, for the server's one-shot modes ({@link MigrateOnly}, {@link LocalAdminToken}):
 * the configured one, or the embedded one under the data directory, started here and stopped on close.
 */
final class OneShotDatabase implements AutoCloseable {

    private final DatabaseConfig config;
    private final String where;
    private final EmbeddedDatabase embedded;

    private OneShotDatabase(DatabaseConfig config, String where, EmbeddedDatabase embedded) {
        this.config = config;
        this.where = where;
        this.embedded = embedded;
    }

    static OneShotDatabase of(CairnProperties properties) {
        CairnProperties.Database db = properties.database();
        if (db.embedded()) {
            EmbeddedDatabase embedded =
                    EmbeddedDatabase.start(properties.dataDir().resolve("postgres"));
            return new OneShotDatabase(
                    DatabaseConfig.of(embedded.jdbcUrl())
                            .withPoolSize(2)
                            .withRandomPageCost(db.plannerRandomPageCost()),
                    "the embedded PostgreSQL under " + properties.dataDir(),
                    embedded);
        }
        return new OneShotDatabase(
                DatabaseConfig.of(Services.withCredentials(db.url(), db.user(), db.password()))
                        .withPoolSize(2)
                        .withRandomPageCost(db.plannerRandomPageCost()),
                db.url().replaceAll("password=[^&]*", "password=***"),
                null);
    }

    DatabaseConfig config() {
        return config;
    }

    /** The database for messages: its URL without a password, or the embedded one's data directory. */
    String where() {
        return where;
    }

    @Override
    public void close() {
        if (embedded != null) {
            embedded.close();
        }
    }
}
