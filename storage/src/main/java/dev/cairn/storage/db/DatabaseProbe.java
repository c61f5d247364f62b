package dev.cairn.storage.db;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import java.util.Set;

import org.postgresql.Driver;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * One attempt to connect to a database, for a server that waits at start-up until its database answers.
 * It tells a refusal that waiting will not change (a wrong password, a role or database that does not exist)
 * from a database that is not there yet.
 */
public final class DatabaseProbe {

    /** PostgreSQL's answers that name a setting to change: the password, the role, the database, the right to connect. */
    private static final Set<String> REFUSALS = Set.of("28P01", "28000", "3D000", "42501");

    private DatabaseProbe() {}

    /**
     * Connects once to {@code url} (credentials in its parameters) and closes the connection.
     *
     * @throws InvalidInputException the URL is not PostgreSQL's, or the database refused this role
     * @throws SQLException          the database did not answer (not there yet, restarting, unreachable)
     */
    public static void connectOnce(String url, Duration timeout) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("connectTimeout", Long.toString(timeout.toSeconds()));
        properties.setProperty("loginTimeout", Long.toString(timeout.toSeconds()));
        try (Connection c = new Driver().connect(url, properties)) {
            if (c == null) {
                throw new InvalidInputException(
                        "not a PostgreSQL JDBC URL (jdbc:postgresql://host:port/database): " + where(url));
            }
        } catch (SQLException e) {
            if (REFUSALS.contains(e.getSQLState())) {
                throw new InvalidInputException(
                        "the database at " + where(url) + " refused this server: " + e.getMessage(), e);
            }
            throw e;
        }
    }

    /** host:port/database of a JDBC URL, without its parameters (where a password may be). */
    public static String where(String jdbcUrl) {
        String rest = jdbcUrl.replaceFirst("^jdbc:postgresql:(//)?", "");
        return rest.split("\\?", 2)[0];
    }
}
