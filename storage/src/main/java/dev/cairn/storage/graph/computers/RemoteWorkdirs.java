package dev.cairn.storage.graph.computers;

import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.Transactions;
import dev.cairn.storage.graph.CachingExtras;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.RemoteData;
import dev.cairn.storage.graph.StorageException;

/**
 * The working folders calculation jobs left on their computers ({@code remote_workdir}), and the record
 * of their removal. A removed folder is marked on every {@code RemoteData} that points at it (the extra
 * {@value #CLEANED}, AiiDA's), and every job whose folder it was stops being a cache source: a job taken
 * from the cache points at its source's folder, so a copy made after the removal would point at nothing.
 */
public final class RemoteWorkdirs {

    /** The extra of a {@code RemoteData} whose folder was removed (AiiDA's {@code RemoteData.KEY_EXTRA_CLEANED}). */
    public static final String CLEANED = "cleaned";

    /**
     * A calculation job and its working folder.
     *
     * @param jobId      the job's node id
     * @param job        its uuid
     * @param state      its process state
     * @param computerId the computer it ran on; null when it never had one
     * @param path       its working folder there; null when it never reached the computer
     * @param cleaned    its {@code remote_folder} is marked as removed
     * @param liveCaller a process that called it, directly or not, is still running (and may need the folder)
     */
    public record Workdir(
            long jobId, UUID job, String state, Long computerId, String path, boolean cleaned, boolean liveCaller) {}

    private static final String JOBS = """
            WITH RECURSIVE tree(id) AS (
                SELECT unnest(?::bigint[])
                UNION
                SELECT l.output_id FROM link l JOIN tree t ON l.input_id = t.id
                WHERE l.type IN ('call_calc', 'call_work'))
            SELECT n.id, n.uuid, n.attributes ->> 'process_state', n.computer_id,
                   coalesce(n.attributes ->> 'remote_workdir', folder.path), coalesce(folder.cleaned, false),
                   EXISTS (WITH RECURSIVE up(id) AS (
                               SELECT l.input_id FROM link l
                               WHERE l.output_id = n.id AND l.type IN ('call_calc', 'call_work')
                               UNION
                               SELECT l.input_id FROM link l JOIN up ON l.output_id = up.id
                               WHERE l.type IN ('call_calc', 'call_work'))
                           SELECT 1 FROM up JOIN node a ON a.id = up.id
                           WHERE a.attributes ->> 'process_state' IN ('created', 'waiting'))
            FROM tree t JOIN node n ON n.id = t.id
            LEFT JOIN LATERAL (
                SELECT r.attributes ->> 'remote_path' AS path, r.extras @> '{"%2$s": true}' AS cleaned
                FROM link o JOIN node r ON r.id = o.output_id
                WHERE o.input_id = n.id AND o.type = 'create' AND r.node_type = '%1$s'
                LIMIT 1) folder ON true
            WHERE n.node_type = '%3$s'
            ORDER BY n.id
            """.formatted(RemoteData.TYPE, CLEANED, CalcJobNode.TYPE);

    /**
     * Marks the folders' RemoteData, then invalidates the jobs that made them or whose folders they were.
     * Every step finds its rows by an index (V22's on the paths, the links' on output_id, the primary key):
     * the ids go through arrays since the planner, guessing the rows of a CTE, read every job otherwise.
     */
    private static final String MARK = """
            WITH marked AS (
                UPDATE node SET extras = extras || '{"%1$s": true}'
                WHERE node_type = '%2$s' AND computer_id = ? AND attributes ->> 'remote_path' = ANY (?)
                RETURNING id)
            UPDATE node n SET extras = n.extras || '{"%3$s": false, "%4$s": "its work directory was cleaned"}'
            WHERE n.node_type = '%5$s'
              AND n.id = ANY (ARRAY(
                  SELECT l.input_id FROM link l
                  WHERE l.output_id = ANY (ARRAY(SELECT id FROM marked)) AND l.type = 'create'
                  UNION
                  SELECT j.id FROM node j
                  WHERE j.node_type = '%5$s' AND j.computer_id = ? AND j.attributes ->> 'remote_workdir' = ANY (?)))
            """.formatted(
            CLEANED, RemoteData.TYPE, CachingExtras.VALID_CACHE, CachingExtras.INVALID_REASON, CalcJobNode.TYPE);

    private final Database database;

    /** The working folders of the jobs of this database. */
    public RemoteWorkdirs(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /** The calculation jobs among {@code processIds} and among the processes they called at any depth, by id. */
    public List<Workdir> of(Collection<Long> processIds) {
        if (processIds.isEmpty()) {
            return List.of();
        }
        try {
            return Transactions.run(database, c -> {
                try (PreparedStatement s = c.prepareStatement(JOBS)) {
                    s.setArray(1, c.createArrayOf("bigint", processIds.toArray()));
                    List<Workdir> jobs = new ArrayList<>();
                    try (ResultSet r = s.executeQuery()) {
                        while (r.next()) {
                            jobs.add(new Workdir(
                                    r.getLong(1),
                                    r.getObject(2, UUID.class),
                                    r.getString(3),
                                    r.getObject(4, Long.class),
                                    r.getString(5),
                                    r.getBoolean(6),
                                    r.getBoolean(7)));
                        }
                    }
                    return jobs;
                }
            });
        } catch (SQLException e) {
            throw new StorageException("reading the working folders of calculation jobs", e);
        }
    }

    /**
     * Records that the folders {@code paths} on the computer {@code computerId} are gone, in one statement:
     * the {@code RemoteData} nodes there marked {@value #CLEANED}, and the jobs whose folders they were, or
     * that made those nodes (a job from the cache points at its source's folder), no longer cache sources.
     * Returns how many jobs that was.
     */
    public int markRemoved(long computerId, Collection<String> paths) {
        if (paths.isEmpty()) {
            return 0;
        }
        try {
            return Transactions.run(database, c -> {
                try (PreparedStatement s = c.prepareStatement(MARK)) {
                    Array folders = c.createArrayOf("text", paths.toArray());
                    s.setLong(1, computerId);
                    s.setArray(2, folders);
                    s.setLong(3, computerId);
                    s.setArray(4, folders);
                    return s.executeUpdate();
                }
            });
        } catch (SQLException e) {
            throw new StorageException("recording removed working folders", e);
        }
    }
}
