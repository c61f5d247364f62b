package dev.cairn.storage.archive.aiida;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

import org.sqlite.SQLiteConfig;

/**
 * SQLite connections for the files this package builds and throws away (a reader's index, a writer's
 * database): no journal and no fsync, since a failure discards the file anyway, and no generated keys,
 * which sqlite-jdbc would otherwise fetch with a query of its own after every insert.
 */
final class ScratchSqlite {

    private ScratchSqlite() {}

    static Connection open(Path file) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.OFF);
        config.setSynchronous(SQLiteConfig.SynchronousMode.OFF);
        config.setGetGeneratedKeys(false);
        return config.createConnection("jdbc:sqlite:" + file);
    }
}
