package dev.cairn.storage.graph.comments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.GraphRows;
import dev.cairn.storage.testing.TestDatabase;

class CommentStoreIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;
    static CommentStore comments;
    static long node, other, user;

    @BeforeAll
    static void open() throws SQLException {
        database = Database.open(DatabaseConfig.of(db.jdbcUrl()));
        comments = new CommentStore(database);
        try (Connection c = database.connection()) {
            GraphRows rows = new GraphRows(c);
            node = rows.data();
            other = rows.calc();
            user = rows.userId();
        }
    }

    @AfterAll
    static void close() {
        database.close();
    }

    @Test
    void commentsAreListedPerNodeOldestFirst() {
        Comment first = comments.add(node, user, "converged?");
        Comment second = comments.add(node, user, "yes, at 40 Ry");
        comments.add(other, user, "elsewhere");
        assertEquals(List.of(first, second), comments.forNode(node));
        assertEquals(first, comments.get(first.id()));
        assertEquals(node, first.nodeId());
        assertEquals(user, first.userId());
    }

    @Test
    void anUpdateChangesTheContentAndMovesMtime() throws InterruptedException {
        Comment c = comments.add(other, user, "draft");
        Thread.sleep(5);
        Comment edited = comments.update(c.id(), "final");
        assertEquals("final", edited.content());
        assertEquals(c.ctime(), edited.ctime());
        assertTrue(edited.mtime().isAfter(c.mtime()), c.mtime() + " then " + edited.mtime());
        assertEquals(edited, comments.get(c.id()));
    }

    @Test
    void aRemovedCommentIsGone() {
        Comment c = comments.add(node, user, "typo");
        comments.remove(c.id());
        assertTrue(comments.forNode(node).stream().noneMatch(x -> x.id() == c.id()));
        assertEquals(
                "comment " + c.id() + " does not exist",
                assertThrows(NotFoundException.class, () -> comments.get(c.id()))
                        .getMessage());
        assertThrows(NotFoundException.class, () -> comments.remove(c.id()));
        assertThrows(NotFoundException.class, () -> comments.update(c.id(), "x"));
    }

    @Test
    void aCommentNeedsAnExistingNodeAndUser() {
        assertEquals(
                "comment: node 999999 does not exist",
                assertThrows(NotFoundException.class, () -> comments.add(999999, user, "x"))
                        .getMessage());
        assertEquals(
                "comment: user 999999 does not exist",
                assertThrows(NotFoundException.class, () -> comments.add(node, 999999, "x"))
                        .getMessage());
    }
}
