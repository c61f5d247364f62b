package dev.cairn.storage.graph.computers;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;

import org.hibernate.Session;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.internal.ComputerEntity;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.SqlErrors;

/**
 * The computers calculation jobs run on. Labels are unique.
 * <p>
 * A computer that nodes reference is part of their provenance: where a job ran, through which
 * transport and scheduler. So once any node references it, its hostname, transport type and
 * scheduler type are frozen (a mutable computer would silently rewrite the history of every
 * node that used it). Label, description and metadata stay editable.
 */
public final class ComputerStore {

    private final Database database;

    /** The computers of this database. */
    public ComputerStore(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /** @throws ConflictException if the label is taken */
    public Computer create(ComputerSpec spec) {
        ComputerEntity entity = new ComputerEntity();
        entity.uuid = UUID.randomUUID();
        entity.label = spec.label();
        entity.hostname = spec.hostname();
        entity.description = spec.description();
        entity.transportType = spec.transportType();
        entity.schedulerType = spec.schedulerType();
        entity.metadata = new LinkedHashMap<>(spec.metadata());
        try {
            database.sessions().inTransaction(session -> {
                requireFreeLabel(session, spec.label());
                session.persist(entity);
            });
        } catch (RuntimeException e) {
            throw labelTaken(e, spec.label());
        }
        return toComputer(entity);
    }

    /** @throws NotFoundException if there is no such computer */
    public Computer get(long id) {
        return database.sessions().fromSession(session -> toComputer(require(session, id)));
    }

    /** The computer with this label, if there is one. */
    public Optional<Computer> findByLabel(String label) {
        return database.sessions()
                .fromSession(session -> session.createSelectionQuery(
                                "from ComputerEntity where label = :label", ComputerEntity.class)
                        .setParameter("label", label)
                        .uniqueResultOptional()
                        .map(ComputerStore::toComputer));
    }

    /** The computer with this uuid, if there is one. */
    public Optional<Computer> findByUuid(UUID uuid) {
        return database.sessions()
                .fromSession(session -> session.createSelectionQuery(
                                "from ComputerEntity where uuid = :uuid", ComputerEntity.class)
                        .setParameter("uuid", uuid)
                        .uniqueResultOptional()
                        .map(ComputerStore::toComputer));
    }

    /** All computers, by label. */
    public List<Computer> list() {
        return database.sessions()
                .fromSession(session -> session
                        .createSelectionQuery("from ComputerEntity order by label", ComputerEntity.class)
                        .getResultList()
                        .stream()
                        .map(ComputerStore::toComputer)
                        .toList());
    }

    /** The number of nodes that reference the computer. */
    public long nodeCount(long id) {
        return database.sessions().fromSession(session -> nodes(session, id));
    }

    /** @throws ConflictException if another computer has the label */
    public Computer relabel(long id, String label) {
        ComputerSpec.requireText("label", label);
        try {
            return database.sessions().fromTransaction(session -> {
                ComputerEntity entity = require(session, id);
                if (!entity.label.equals(label)) {
                    requireFreeLabel(session, label);
                }
                entity.label = label;
                session.flush();
                return toComputer(entity);
            });
        } catch (RuntimeException e) {
            throw labelTaken(e, label);
        }
    }

    /** Sets a computer's description (none clears it). */
    public Computer describe(long id, String description) {
        return update(id, e -> e.description = Objects.requireNonNullElse(description, ""));
    }

    /** Replaces a computer's metadata. */
    public Computer setMetadata(long id, Map<String, Object> metadata) {
        Objects.requireNonNull(metadata, "metadata");
        return update(id, e -> e.metadata = new LinkedHashMap<>(metadata));
    }

    /** @throws ConflictException if nodes reference the computer */
    public Computer setHostname(long id, String hostname) {
        ComputerSpec.requireText("hostname", hostname);
        return updateProvenance(id, "hostname", e -> e.hostname, hostname, e -> e.hostname = hostname);
    }

    /** @throws ConflictException if nodes reference the computer */
    public Computer setTransportType(long id, String transportType) {
        ComputerSpec.requireText("transport type", transportType);
        return updateProvenance(
                id, "transport type", e -> e.transportType, transportType, e -> e.transportType = transportType);
    }

    /** @throws ConflictException if nodes reference the computer */
    public Computer setSchedulerType(long id, String schedulerType) {
        ComputerSpec.requireText("scheduler type", schedulerType);
        return updateProvenance(
                id, "scheduler type", e -> e.schedulerType, schedulerType, e -> e.schedulerType = schedulerType);
    }

    /**
     * Deletes a computer with its authinfos.
     *
     * @throws ConflictException if nodes reference it
     */
    public void delete(long id) {
        database.sessions().inTransaction(session -> {
            ComputerEntity entity = lock(session, id);
            requireUnused(session, entity, "it cannot be deleted");
            session.remove(entity);
        });
    }

    private Computer update(long id, Consumer<ComputerEntity> change) {
        return database.sessions().fromTransaction(session -> {
            ComputerEntity entity = require(session, id);
            change.accept(entity);
            session.flush();
            return toComputer(entity);
        });
    }

    private Computer updateProvenance(
            long id,
            String field,
            Function<ComputerEntity, String> current,
            String value,
            Consumer<ComputerEntity> change) {
        return database.sessions().fromTransaction(session -> {
            ComputerEntity entity = lock(session, id);
            String old = current.apply(entity);
            if (old.equals(value)) {
                return toComputer(entity);
            }
            requireUnused(
                    session,
                    entity,
                    "its " + field + " cannot change from '" + old + "' to '" + value
                            + "', as that would rewrite their provenance; label, description and metadata may change");
            change.accept(entity);
            session.flush();
            return toComputer(entity);
        });
    }

    /**
     * Loads the computer after locking its row {@code FOR UPDATE}. The lock conflicts with the
     * key-share lock that storing a node which references the computer takes, so no such node
     * can commit between a check of {@link #requireUnused} and the change that follows it.
     */
    private static ComputerEntity lock(Session session, long id) {
        session.createNativeQuery("SELECT id FROM computer WHERE id = :id FOR UPDATE", Long.class)
                .setParameter("id", id)
                .uniqueResultOptional()
                .orElseThrow(() -> notFound(id));
        return require(session, id);
    }

    private static void requireUnused(Session session, ComputerEntity entity, String refusal) {
        long used = nodes(session, entity.id);
        if (used > 0) {
            throw new ConflictException("computer '" + entity.label + "' (" + entity.uuid + ") is used by " + used
                    + " node" + (used == 1 ? "" : "s") + ": " + refusal);
        }
    }

    private static long nodes(Session session, long id) {
        return session.createSelectionQuery("select count(*) from NodeEntity n where n.computer.id = :id", Long.class)
                .setParameter("id", id)
                .getSingleResult();
    }

    private static ComputerEntity require(Session session, long id) {
        ComputerEntity entity = session.find(ComputerEntity.class, id);
        if (entity == null) {
            throw notFound(id);
        }
        return entity;
    }

    private static NotFoundException notFound(long id) {
        return new NotFoundException("computer " + id + " does not exist");
    }

    // Checked first to give the usual case a clean error; the unique constraint still decides races.
    private static void requireFreeLabel(Session session, String label) {
        if (session.createSelectionQuery("select count(*) from ComputerEntity where label = :label", Long.class)
                        .setParameter("label", label)
                        .getSingleResult()
                > 0) {
            throw takenLabel(label, null);
        }
    }

    private static ConflictException takenLabel(String label, Throwable cause) {
        return new ConflictException("a computer labelled '" + label + "' exists already", cause);
    }

    private static RuntimeException labelTaken(RuntimeException failure, String label) {
        if (SqlErrors.violated(failure, "computer_label_key")) {
            return takenLabel(label, failure);
        }
        return failure;
    }

    static Computer toComputer(ComputerEntity e) {
        return new Computer(
                e.id, e.uuid, e.label, e.hostname, e.description, e.transportType, e.schedulerType, e.metadata);
    }
}
