package dev.cairn.storage.query;

import static dev.cairn.storage.query.QueryFixture.CALC1;
import static dev.cairn.storage.query.QueryFixture.CALC2;
import static dev.cairn.storage.query.QueryFixture.D1;
import static dev.cairn.storage.query.QueryFixture.D2;
import static dev.cairn.storage.query.QueryFixture.O1;
import static dev.cairn.storage.query.QueryFixture.O2;
import static dev.cairn.storage.query.QueryFixture.O3;
import static dev.cairn.storage.query.QueryFixture.S1;
import static dev.cairn.storage.query.QueryFixture.WF;
import static dev.cairn.storage.query.QueryFixture.assertIds;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.testing.TestDatabase;

/** Every relationship, edges, and ancestors/descendants with depth limits and link-type sets. */
class RelationshipsIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;

    @BeforeAll
    static void fixture() throws SQLException {
        database = QueryFixture.open(db);
    }

    @AfterAll
    static void close() {
        database.close();
    }

    /** Ids of the second vertex, joined to node {@code start} by {@code related}. */
    private static GraphQuery fromNode(long start, Consumer<VertexBuilder> related) {
        return GraphQuery.on(
                database,
                QueryBuilder.start()
                        .node("a", v -> v.where(Filter.field("id").eq(start)))
                        .node("b", v -> related.accept(v.project("id")))
                        .build());
    }

    /** Ids of the rows of {@code entity} that belong to node {@code start} (with_node). */
    private static GraphQuery ofNode(long start, EntityType entity) {
        return GraphQuery.on(
                database,
                QueryBuilder.start()
                        .node("a", v -> v.where(Filter.field("id").eq(start)))
                        .add(entity, "b", v -> v.withNode("a").project("id"))
                        .build());
    }

    private static List<Long> list(GraphQuery q) {
        return QueryFixture.idList(q);
    }

    @Test
    void withIncomingFindsOutputsAndWithOutgoingFindsInputs() {
        assertIds(List.of(O1, O2), fromNode(CALC1, v -> v.withIncoming("a")));
        assertIds(List.of(D1, D2, WF), fromNode(CALC1, v -> v.withOutgoing("a")));
        // a node vertex after a node vertex joins it with_incoming by default
        assertIds(
                List.of(O1, O2),
                GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .node("a", v -> v.where(Filter.field("id").eq(CALC1)))
                                .node("b", v -> v.project("id"))
                                .build()));
    }

    @Test
    void edgesAreFilteredAndProjected() {
        GraphQuery q = GraphQuery.on(
                database,
                QueryBuilder.start()
                        .node("a", v -> v.where(Filter.field("id").eq(CALC1)))
                        .node(
                                "b",
                                v -> v.withOutgoing("a")
                                        .edgeWhere(Filter.field("type").eq("input_calc"))
                                        .edgeProject("label", "type")
                                        .project("id"))
                        .orderBy(Order.asc("b", "id"))
                        .build());
        List<Row> rows = q.all();
        assertEquals(List.of(D1, D2), rows.stream().map(r -> r.get("b", "id")).toList());
        assertEquals(
                List.of("x", "y"),
                rows.stream().map(r -> r.get("a--b", "label")).toList());
        assertEquals("input_calc", rows.getFirst().get("a--b", "type"));
        Row link = GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .node("a", v -> v.where(Filter.field("id").eq(WF)))
                                .node(
                                        "b",
                                        v -> v.withIncoming("a")
                                                .edgeWhere(Filter.field("label").eq("result"))
                                                .edgeProject("*"))
                                .build())
                .one();
        assertEquals(
                new EntityRow.Link(((EntityRow.Link) link.get(0)).id(), WF, O2, LinkType.RETURN, "result"),
                link.get("a--b", "*"));
    }

    @Test
    void descendantsFollowDataProvenanceByDefaultEachOnce() {
        assertIds(List.of(CALC1, O1, O2, CALC2, O3), fromNode(D1, v -> v.withAncestors("a")));
        List<Long> ids = list(fromNode(D1, v -> v.withAncestors("a")));
        assertEquals(Set.copyOf(ids).size(), ids.size(), "each descendant once: " + ids);
    }

    @Test
    void descendantsWithDepthLimits() {
        assertIds(List.of(CALC1), fromNode(D1, v -> v.withAncestors("a").maxDepth(1)));
        assertIds(List.of(CALC1, O1, O2), fromNode(D1, v -> v.withAncestors("a").maxDepth(2)));
        assertIds(
                List.of(CALC1, O1, O2, CALC2),
                fromNode(D1, v -> v.withAncestors("a").maxDepth(3)));
    }

    @Test
    void descendantsThroughAllSixLinkTypesReachEachNodeOnce() {
        // o2 is reached through calc1 (create) and through wf (return), calc1 directly and through wf's call
        List<Long> ids = list(fromNode(D1, v -> v.withAncestors("a").allLinks()));
        assertEquals(new TreeSet<>(List.of(CALC1, O1, O2, CALC2, O3, WF)), new TreeSet<>(ids));
        assertEquals(6, ids.size(), "each node once: " + ids);
        assertIds(
                List.of(WF, CALC1, O2),
                fromNode(
                        D1,
                        v -> v.withAncestors("a")
                                .allLinks()
                                .maxDepth(2)
                                .where(Filter.field("id").in(WF, CALC1, O2))));
        List<Long> depthLimited =
                list(fromNode(D1, v -> v.withAncestors("a").allLinks().maxDepth(3)));
        assertEquals(
                Set.copyOf(depthLimited).size(), depthLimited.size(), "each once with a depth limit: " + depthLimited);
        assertIds(List.of(WF), fromNode(D1, v -> v.withAncestors("a").linkTypes(LinkType.INPUT_WORK)));
    }

    @Test
    void ancestorsWalkBackwards() {
        assertIds(List.of(CALC2, O1, CALC1, D1, D2), fromNode(O3, v -> v.withDescendants("a")));
        assertIds(List.of(CALC2, O1), fromNode(O3, v -> v.withDescendants("a").maxDepth(2)));
        assertIds(
                List.of(CALC1, D1, D2, WF),
                fromNode(O2, v -> v.withDescendants("a").allLinks()));
        // the second vertex filters and types apply to the walked nodes
        assertIds(List.of(D1, D2, O1), fromNode(O3, v -> v.withDescendants("a").type("data.")));
    }

    @Test
    void manyRootsGiveOneRowPerRootAndDescendant() {
        GraphQuery q = GraphQuery.on(
                database,
                QueryBuilder.start()
                        .node(
                                "root",
                                v -> v.where(Filter.field("id").in(D1, D2)).project("id"))
                        .node("d", v -> v.withAncestors("root").project("id"))
                        .build());
        List<Row> rows = q.all();
        assertEquals(10, rows.size(), rows::toString);
        assertEquals(
                5, rows.stream().filter(r -> r.get("root", "id").equals(D2)).count());
    }

    @Test
    void groupsAndTheirNodes() {
        assertIds(
                List.of(D1, D2, S1),
                GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .group("g", v -> v.where(Filter.field("label").eq("inputs")))
                                .node("n", v -> v.withGroup("g").project("id"))
                                .build()));
        Row group = GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .node("n", v -> v.where(Filter.field("id").eq(S1)))
                                .group("g", v -> v.withNode("n").project("*", "label"))
                                .build())
                .one();
        assertEquals("inputs", ((EntityRow.Group) group.get("g", "*")).label());
        assertEquals("inputs", group.get("g", "label"));
    }

    @Test
    void computersUsersCommentsAndLogs() {
        assertIds(
                List.of(CALC1, CALC2),
                GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .computer(
                                        "c", v -> v.where(Filter.field("label").eq("localhost")))
                                .node("n", v -> v.withComputer("c").project("id"))
                                .build()));
        assertIds(List.of(QueryFixture.COMPUTER), ofNode(CALC2, EntityType.COMPUTER));
        assertIds(
                List.of(4L, 6L),
                GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .user("u", v -> v.where(Filter.field("email").eq("bob@example.com")))
                                .node("n", v -> v.withUser("u").project("id"))
                                .build()));
        assertIds(List.of(QueryFixture.U2), ofNode(4L, EntityType.USER));
        assertIds(List.of(QueryFixture.COMMENT), ofNode(D1, EntityType.COMMENT));
        assertIds(List.of(QueryFixture.LOG), ofNode(CALC1, EntityType.LOG));
        assertIds(
                List.of(D1),
                GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .comment(
                                        "c",
                                        v -> v.where(Filter.field("content").like("looks%")))
                                .node("n", v -> v.withComment("c").project("id"))
                                .build()));
        assertIds(
                List.of(CALC1),
                GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .log(
                                        "l",
                                        v -> v.where(Filter.field("level_name").eq("REPORT")))
                                .node("n", v -> v.withLog("l").project("id"))
                                .build()));
    }

    @Test
    void usersWithTheirGroupsAndComments() {
        assertIds(
                List.of(QueryFixture.GROUP),
                GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .user("u", v -> v.where(Filter.field("id").eq(QueryFixture.U2)))
                                .group("g", v -> v.withUser("u").project("id"))
                                .build()));
        assertIds(
                List.of(QueryFixture.U2),
                GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .group("g", v -> v.where(Filter.field("id").eq(QueryFixture.GROUP)))
                                .user("u", v -> v.withGroup("g").project("id"))
                                .build()));
        assertIds(
                List.of(QueryFixture.COMMENT),
                GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .user("u", v -> v.where(Filter.field("id").eq(QueryFixture.U2)))
                                .comment("c", v -> v.withUser("u").project("id"))
                                .build()));
        assertIds(
                List.of(QueryFixture.U2),
                GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .comment("c", v -> v.where(Filter.field("id").eq(QueryFixture.COMMENT)))
                                .user("u", v -> v.withComment("c").project("id"))
                                .build()));
    }
}
