package dev.cairn.storage.graph.comments;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

import org.hibernate.Session;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.internal.CommentEntity;
import dev.cairn.storage.db.internal.NodeEntity;
import dev.cairn.storage.db.internal.UserEntity;
import dev.cairn.storage.errors.NotFoundException;

/** Comments on nodes: added, edited and removed by users; nodes stay immutable. */
public final class CommentStore {

    // Ids of the node and user come from the foreign keys: loading either entity is not needed.
    private static final String SELECT = "select new " + Comment.class.getName()
            + "(c.id, c.uuid, c.node.id, c.user.id, c.ctime, c.mtime, c.content) from CommentEntity c";

    private final Database database;

    /** The comments on the nodes of this database. */
    public CommentStore(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /** @throws NotFoundException if the node or the user does not exist */
    public Comment add(long nodeId, long userId, String content) {
        Objects.requireNonNull(content, "content");
        return database.sessions().fromTransaction(session -> {
            requireRow(session, "NodeEntity", nodeId, "comment: node " + nodeId + " does not exist");
            requireRow(session, "UserEntity", userId, "comment: user " + userId + " does not exist");
            CommentEntity entity = new CommentEntity();
            entity.uuid = UUID.randomUUID();
            entity.node = session.getReference(NodeEntity.class, nodeId);
            entity.user = session.getReference(UserEntity.class, userId);
            entity.ctime = entity.mtime = now();
            entity.content = content;
            session.persist(entity);
            session.flush();
            return new Comment(entity.id, entity.uuid, nodeId, userId, entity.ctime, entity.mtime, content);
        });
    }

    /** Replaces the content. @throws NotFoundException if there is no such comment */
    public Comment update(long commentId, String content) {
        Objects.requireNonNull(content, "content");
        database.sessions().inTransaction(session -> {
            CommentEntity entity = require(session, commentId);
            entity.content = content;
            entity.mtime = now();
        });
        return get(commentId);
    }

    /** @throws NotFoundException if there is no such comment */
    public void remove(long commentId) {
        database.sessions().inTransaction(session -> session.remove(require(session, commentId)));
    }

    /** @throws NotFoundException if there is no such comment */
    public Comment get(long commentId) {
        return database.sessions()
                .fromSession(session -> session.createSelectionQuery(SELECT + " where c.id = :id", Comment.class)
                        .setParameter("id", commentId)
                        .uniqueResultOptional()
                        .orElseThrow(() -> notFound(commentId)));
    }

    /** The comments on a node, oldest first. */
    public List<Comment> forNode(long nodeId) {
        return database.sessions()
                .fromSession(session -> session.createSelectionQuery(
                                SELECT + " where c.node.id = :node order by c.ctime, c.id", Comment.class)
                        .setParameter("node", nodeId)
                        .getResultList());
    }

    private static CommentEntity require(Session session, long commentId) {
        CommentEntity entity = session.find(CommentEntity.class, commentId);
        if (entity == null) {
            throw notFound(commentId);
        }
        return entity;
    }

    private static void requireRow(Session session, String entity, long id, String message) {
        if (session.createSelectionQuery("select count(*) from " + entity + " where id = :id", Long.class)
                        .setParameter("id", id)
                        .getSingleResult()
                == 0) {
            throw new NotFoundException(message);
        }
    }

    // Microseconds: what PostgreSQL keeps, so a comment reads back equal to what add returned.
    private static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
    }

    private static NotFoundException notFound(long commentId) {
        return new NotFoundException("comment " + commentId + " does not exist");
    }
}
