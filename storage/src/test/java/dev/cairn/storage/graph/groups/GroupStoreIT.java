package dev.cairn.storage.graph.groups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.GraphRows;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.graph.SampleGraph;
import dev.cairn.storage.graph.traversal.DeletionResult;
import dev.cairn.storage.graph.traversal.TraversalRules;
import dev.cairn.storage.testing.TestDatabase;

class GroupStoreIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;
    static GroupStore groups;
    Connection connection;
    GraphRows rows;

    @BeforeAll
    static void open() {
        database = Database.open(DatabaseConfig.of(db.jdbcUrl()));
        groups = new GroupStore(database);
    }

    @AfterAll
    static void close() {
        database.close();
    }

    @BeforeEach
    void connect() throws SQLException {
        connection = database.connection();
        rows = new GraphRows(connection);
    }

    @AfterEach
    void release() throws SQLException {
        connection.close();
    }

    private Group group(String label) throws SQLException {
        return groups.create(label, GroupStore.CORE, "", rows.userId());
    }

    private long[] dataNodes(int n) throws SQLException {
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = rows.data();
        }
        return ids;
    }

    @Test
    void aGroupIsFoundByLabelAndTypeAndListedWithItsType() throws SQLException {
        Group g = groups.create("relaxations", GroupStore.CORE, "PBE relaxations", rows.userId());
        Group imported = groups.create("relaxations", "core.import", "", rows.userId());
        assertEquals(Optional.of(g), groups.find("relaxations", GroupStore.CORE));
        assertEquals(Optional.of(imported), groups.find("relaxations", "core.import"));
        assertEquals(g, groups.get(g.id()));
        assertEquals("PBE relaxations", g.description());
        assertEquals(List.of(imported), groups.list("core.import"));
        assertTrue(groups.list(GroupStore.CORE).contains(g));
    }

    @Test
    void aLabelIsUniquePerTypeString() throws SQLException {
        group("twice");
        ConflictException e = assertThrows(ConflictException.class, () -> group("twice"));
        assertEquals("a group labelled 'twice' of type 'core' exists already", e.getMessage());
        assertEquals(
                "group label must not be empty",
                assertThrows(InvalidInputException.class, () -> group(" ")).getMessage());
        assertEquals(
                "group 'orphan': user 999999 does not exist",
                assertThrows(NotFoundException.class, () -> groups.create("orphan", GroupStore.CORE, "", 999999))
                        .getMessage());
    }

    @Test
    void nodesAreAddedAndRemovedInBulkAndCounted() throws SQLException {
        Group g = group("bulk");
        long[] nodes = dataNodes(50);
        assertEquals(
                30,
                groups.addNodes(
                        g.id(), NodeIds.of(LongStream.of(nodes).limit(30).toArray())));
        // Overlapping additions add only the new ones; duplicates in the input count once.
        assertEquals(
                20,
                groups.addNodes(
                        g.id(), NodeIds.streamed(LongStream.concat(LongStream.of(nodes), LongStream.of(nodes)))));
        assertEquals(50, groups.count(g.id()));
        assertEquals(
                10,
                groups.removeNodes(
                        g.id(), NodeIds.of(LongStream.of(nodes).skip(40).toArray())));
        assertEquals(0, groups.removeNodes(g.id(), NodeIds.of(nodes[45])));
        assertEquals(40, groups.count(g.id()));

        List<Long> members = new ArrayList<>();
        assertEquals(40, groups.forEachMember(g.id(), members::add));
        assertEquals(LongStream.of(nodes).limit(40).boxed().toList(), members);

        assertEquals(40, groups.clear(g.id()));
        assertEquals(0, groups.count(g.id()));
    }

    @Test
    void addingMissingNodesNamesThemAndAddsNothing() throws SQLException {
        Group g = group("strict");
        long node = rows.data();
        NotFoundException e = assertThrows(
                NotFoundException.class, () -> groups.addNodes(g.id(), NodeIds.of(node, node + 1000, node + 1001)));
        assertEquals(
                "2 of the 3 nodes to add to group " + g.id() + " do not exist: " + (node + 1000) + ", " + (node + 1001),
                e.getMessage());
        assertEquals(0, groups.count(g.id()));
        assertEquals(
                "group 999999 does not exist",
                assertThrows(NotFoundException.class, () -> groups.addNodes(999999, NodeIds.of(node)))
                        .getMessage());
    }

    @Test
    void aLargeGroupIsFilledByCopyAndReadThroughACursor() throws SQLException {
        Group g = group("large");
        long first = rows.data();
        rows.count(
                "INSERT INTO node (uuid, node_type, ctime, mtime, user_id) SELECT gen_random_uuid(), 'data.core.int.Int.',"
                        + " now(), now(), " + rows.userId() + " FROM generate_series(1, 99999) RETURNING 0");
        long last = rows.count("SELECT max(id) FROM node");
        assertEquals(100_000, groups.addNodes(g.id(), NodeIds.streamed(LongStream.rangeClosed(first, last))));
        long[] sum = {0};
        assertEquals(100_000, groups.forEachMember(g.id(), id -> sum[0] += id));
        assertEquals(LongStream.rangeClosed(first, last).sum(), sum[0]);
    }

    @Test
    void deletingAGroupKeepsItsNodes() throws SQLException {
        Group g = group("plain");
        long[] nodes = dataNodes(3);
        groups.addNodes(g.id(), NodeIds.of(nodes));
        groups.delete(g.id());
        assertEquals(Optional.empty(), groups.find("plain", GroupStore.CORE));
        for (long n : nodes) {
            assertTrue(rows.exists(n));
        }
        assertThrows(NotFoundException.class, () -> groups.delete(g.id()));
    }

    @Test
    void deletingAGroupWithItsNodesDeletesTheirClosureToo() throws SQLException {
        SampleGraph sample = new SampleGraph(rows);
        Group g = group("with-nodes");
        Group other = group("other");
        groups.addNodes(g.id(), NodeIds.of(sample.d9));
        groups.addNodes(other.id(), NodeIds.of(sample.d10, sample.dp));
        DeletionResult result = groups.deleteWithNodes(g.id(), TraversalRules.DELETE);
        assertEquals(3, result.nodes());
        assertFalse(rows.exists(sample.d9));
        assertFalse(rows.exists(sample.c9));
        assertFalse(rows.exists(sample.d10));
        assertTrue(rows.exists(sample.dp));
        assertEquals(Optional.empty(), groups.find("with-nodes", GroupStore.CORE));
        assertEquals(1, groups.count(other.id()), "d10 left the other group with its deletion");
        assertThrows(NotFoundException.class, () -> groups.deleteWithNodes(g.id(), TraversalRules.DELETE));
    }

    @Test
    void labelDescriptionAndExtrasChangeAndATakenLabelIsRefused() throws SQLException {
        Group g = groups.create("to-relabel", GroupStore.CORE, "", rows.userId(), Map.of("made", "with it"));
        assertEquals(Map.of("made", "with it"), g.extras());
        group("taken");
        Group relabelled = groups.relabel(g.id(), "relabelled");
        assertEquals("relabelled", relabelled.label());
        assertEquals(Optional.of(relabelled), groups.find(g.uuid()));
        ConflictException taken = assertThrows(ConflictException.class, () -> groups.relabel(g.id(), "taken"));
        assertEquals("a group labelled 'taken' of type 'core' exists already", taken.getMessage());
        assertEquals("PBE", groups.describe(g.id(), "PBE").description());
        Group extras = groups.changeExtras(g.id(), Map.of("kept", 1, "gone", "x"), List.of("made"));
        assertEquals(Map.of("kept", 1L, "gone", "x"), extras.extras());
        assertEquals(
                Map.of("kept", 1L, "new", true),
                groups.changeExtras(g.id(), Map.of("new", true), List.of("gone"))
                        .extras());
        assertEquals(Map.of("kept", 1L, "new", true), groups.get(g.id()).extras());
        assertThrows(InvalidInputException.class, () -> groups.changeExtras(g.id(), Map.of("a.b", 1), List.of()));
        assertThrows(NotFoundException.class, () -> groups.describe(-1, "x"));
    }

    @Test
    void membersAreAddedAndRemovedTogetherOrNotAtAll() throws SQLException {
        Group g = group("together");
        long[] nodes = dataNodes(3);
        groups.addNodes(g.id(), NodeIds.of(nodes[0]));
        GroupStore.MembershipChange change =
                groups.changeMembers(g.id(), NodeIds.of(nodes[1], nodes[2], nodes[1]), NodeIds.of(nodes[0]));
        assertEquals(new GroupStore.MembershipChange(2, 1), change);
        assertThrows(
                NotFoundException.class,
                () -> groups.changeMembers(g.id(), NodeIds.of(-5), NodeIds.of(nodes[1], nodes[2])));
        assertEquals(2, groups.count(g.id()));
        assertEquals(Map.of(g.id(), 2L, -1L, 0L), groups.counts(Set.of(g.id(), -1L)));
    }

    @Test
    void groupsArePagedByLabel() throws SQLException {
        for (String label : List.of("page-c", "page-a", "page-b")) {
            groups.create(label, "test.paged", "", rows.userId());
        }
        assertEquals(
                List.of("page-a", "page-b"),
                groups.list("test.paged", null, 2).stream().map(Group::label).toList());
        assertEquals(
                List.of("page-c"),
                groups.list("test.paged", "page-b", 2).stream()
                        .map(Group::label)
                        .toList());
    }
}
