package dev.cairn.api.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.graph.StorageException;

/** What counts as an outage, answered 503, and what is a fault of the server, answered 500. */
class OutagesTest {

    @Test
    void cairnsUnavailableErrorsAreOutagesWhereverTheyAreAmongTheCauses() {
        StorageException storage = new StorageException("checking a token", new SQLException("gone", "08006"));
        assertTrue(Outages.isOutage(storage));
        assertTrue(Outages.isOutage(new IllegalStateException("wrapped", storage)));
        assertEquals("checking a token", Outages.describe(new IllegalStateException("wrapped", storage)));
    }

    @Test
    void unwrappedConnectionFailuresAreOutages() {
        assertTrue(Outages.isOutage(new RuntimeException(
                new SQLTransientConnectionException("cairn-graph - Connection is not available, request timed out"))));
        assertTrue(Outages.isOutage(new RuntimeException(new SQLException("I/O error", "08006"))));
        assertEquals(
                "a connection to the database failed",
                Outages.describe(new RuntimeException(new SQLException("I/O error", "08006"))));
    }

    @Test
    void otherFailuresAreNot() {
        assertFalse(Outages.isOutage(new IllegalStateException("a bug")));
        assertFalse(Outages.isOutage(new RuntimeException(new SQLException("duplicate key", "23505"))));
    }
}
