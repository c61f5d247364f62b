package dev.cairn.api.ops;

import java.sql.SQLException;

import com.zaxxer.hikari.HikariDataSource;

import dev.cairn.storage.db.Database;

/** The engine's connection pool as HikariCP's own, for its counts and its Micrometer binding. */
final class ConnectionPool {

    private ConnectionPool() {}

    /** The pool behind the database's data source (a HikariCP pool, which unwraps to itself). */
    static HikariDataSource of(Database database) {
        try {
            return database.dataSource().unwrap(HikariDataSource.class);
        } catch (SQLException e) {
            throw new IllegalStateException("the database's data source is not a HikariCP pool", e);
        }
    }
}
