package dev.cairn.api.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import dev.cairn.engine.Engine;

/** What tests of bad input check: the problem a refusal answers with, and that nothing was stored. */
public final class Refusals {

    private Refusals() {}

    /**
     * The response is a problem of this status whose detail contains every one of {@code parts}.
     *
     * @return the detail
     */
    public static String assertRefused(Api.Response r, int status, String... parts) {
        assertEquals(status, r.status(), r.toString());
        assertEquals("application/problem+json", r.header("Content-Type"), r.toString());
        String detail = r.json().get("detail").asString();
        for (String part : parts) {
            assertTrue(detail.contains(part), "'" + detail + "' does not say '" + part + "'");
        }
        return detail;
    }

    /** The single number a query answers, e.g. a count of rows. */
    public static long count(Engine engine, String sql) {
        try (Connection c = engine.database().connection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
