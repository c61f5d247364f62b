package dev.cairn.storage.graph.computers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.GraphRows;
import dev.cairn.storage.testing.TestDatabase;

class ComputerStoreIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;
    static ComputerStore computers;

    @BeforeAll
    static void open() {
        database = Database.open(DatabaseConfig.of(db.jdbcUrl()));
        computers = new ComputerStore(database);
    }

    @AfterAll
    static void close() {
        database.close();
    }

    private static Computer cluster(String label) {
        return computers.create(new ComputerSpec(
                label,
                "login." + label + ".example.org",
                "the " + label + " cluster",
                "core.ssh",
                "core.slurm",
                Map.of("workdir", "/scratch/{username}/cairn/", "default_mpiprocs_per_machine", 128L)));
    }

    /** A calculation job node that ran on the computer, written with plain SQL. */
    private static void nodeOn(Computer computer) throws SQLException {
        try (Connection c = database.connection()) {
            long user = GraphRows.user(c, UUID.randomUUID() + "@example.com");
            try (PreparedStatement s =
                    c.prepareStatement("INSERT INTO node (uuid, node_type, ctime, mtime, user_id, computer_id)"
                            + " VALUES (gen_random_uuid(), ?, now(), now(), ?, ?)")) {
                s.setString(1, GraphRows.CALC_JOB);
                s.setLong(2, user);
                s.setLong(3, computer.id());
                s.executeUpdate();
            }
        }
    }

    @Test
    void aCreatedComputerIsFoundByLabelUuidAndIdWithItsMetadata() {
        Computer daint = cluster("daint");
        assertEquals(Optional.of(daint), computers.findByLabel("daint"));
        assertEquals(Optional.of(daint), computers.findByUuid(daint.uuid()));
        assertEquals(daint, computers.get(daint.id()));
        assertEquals(128L, daint.metadata().get("default_mpiprocs_per_machine"));
        assertEquals("core.slurm", computers.get(daint.id()).schedulerType());
        assertTrue(computers.list().contains(daint));
        assertEquals(Optional.empty(), computers.findByLabel("nowhere"));
    }

    @Test
    void labelsAreUnique() {
        Computer first = cluster("eiger");
        ConflictException e = assertThrows(ConflictException.class, () -> cluster("eiger"));
        assertEquals("a computer labelled 'eiger' exists already", e.getMessage());
        Computer other = cluster("alps");
        assertThrows(ConflictException.class, () -> computers.relabel(other.id(), "eiger"));
        assertEquals("eiger", computers.get(first.id()).label());
    }

    @Test
    void emptyFieldsAreRefusedByName() {
        InvalidInputException e =
                assertThrows(InvalidInputException.class, () -> ComputerSpec.of("x", " ", "core.local", "core.direct"));
        assertEquals("computer hostname must not be empty", e.getMessage());
        assertThrows(InvalidInputException.class, () -> ComputerSpec.of("", "localhost", "core.local", "core.direct"));
        assertThrows(InvalidInputException.class, () -> ComputerSpec.of("x", "localhost", null, "core.direct"));
        assertThrows(InvalidInputException.class, () -> ComputerSpec.of("x", "localhost", "core.local", ""));
    }

    @Test
    void anUnusedComputerMayChangeEverything() {
        Computer c = cluster("spare");
        computers.setHostname(c.id(), "new.example.org");
        computers.setTransportType(c.id(), "core.local");
        Computer changed = computers.setSchedulerType(c.id(), "core.direct");
        assertEquals(
                List.of("new.example.org", "core.local", "core.direct"),
                List.of(changed.hostname(), changed.transportType(), changed.schedulerType()));
        assertEquals(changed, computers.get(c.id()));
    }

    @Test
    void aComputerNodesRanOnKeepsItsHostnameTransportAndScheduler() throws SQLException {
        Computer c = cluster("busy");
        nodeOn(c);
        assertEquals(1, computers.nodeCount(c.id()));
        ConflictException e =
                assertThrows(ConflictException.class, () -> computers.setHostname(c.id(), "elsewhere.org"));
        assertEquals(
                "computer 'busy' (" + c.uuid() + ") is used by 1 node: its hostname cannot change from"
                        + " 'login.busy.example.org' to 'elsewhere.org', as that would rewrite their provenance; label, description"
                        + " and metadata may change",
                e.getMessage());
        assertTrue(assertThrows(ConflictException.class, () -> computers.setTransportType(c.id(), "core.local"))
                .getMessage()
                .contains("its transport type cannot change from 'core.ssh' to 'core.local'"));
        assertTrue(assertThrows(ConflictException.class, () -> computers.setSchedulerType(c.id(), "core.pbspro"))
                .getMessage()
                .contains("its scheduler type cannot change from 'core.slurm' to 'core.pbspro'"));
        assertThrows(ConflictException.class, () -> computers.delete(c.id()));
        // Setting a frozen field to the value it has changes nothing and is allowed.
        assertEquals(c, computers.setHostname(c.id(), "login.busy.example.org"));
        assertEquals(c, computers.get(c.id()));

        computers.relabel(c.id(), "busy-old");
        computers.describe(c.id(), "retired");
        Computer edited = computers.setMetadata(c.id(), Map.of("shebang", "#!/bin/bash"));
        assertEquals(
                List.of("busy-old", "retired", Map.of("shebang", "#!/bin/bash")),
                List.of(edited.label(), edited.description(), edited.metadata()));
        assertEquals(edited, computers.get(c.id()));
    }

    @Test
    void anUnusedComputerCanBeDeletedAndThenIsNotFound() {
        Computer c = cluster("gone");
        computers.delete(c.id());
        assertEquals(Optional.empty(), computers.findByLabel("gone"));
        NotFoundException e = assertThrows(NotFoundException.class, () -> computers.get(c.id()));
        assertEquals("computer " + c.id() + " does not exist", e.getMessage());
        assertThrows(NotFoundException.class, () -> computers.setHostname(c.id(), "x"));
        assertThrows(NotFoundException.class, () -> computers.delete(c.id()));
    }
}
