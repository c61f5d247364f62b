package dev.cairn.engine.internal.calcjob;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.cairn.engine.events.StateChanged;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.engine.scheduler.JobInfo;
import dev.cairn.engine.scheduler.JobState;
import dev.cairn.storage.db.JsonText;

/**
 * Writes what a poll of the scheduler said about each job onto its calculation job's node, as
 * AiiDA does: {@code scheduler_state} (the {@link JobState#attributeValue() value}),
 * {@code scheduler_lastchecktime} (the poll's time, ISO 8601, the database's clock) and
 * {@code last_job_info} (the listing's {@link JobInfo#asAttribute() fields}). A node is written
 * only when its state changed or its last check time is older than {@code refreshAfter}:
 * thousands of queued jobs polled every few seconds would otherwise rewrite their rows (attributes
 * and all) at every poll. So {@code last_job_info} is as fresh as the check time, not newer: a
 * running job's time used grows between writes. A change of state is also a {@code process_event}
 * (the process stays in its state) that says the scheduler states left and entered, so the event
 * streams show it as they show steps. One statement for the whole poll; a sealed node is never
 * written.
 */
final class SchedulerStates {

    private static final String RECORD =
            "WITH polled AS (SELECT p.id, p.state, p.i, n.attributes ->> 'scheduler_state' AS was"
                    + " FROM unnest(?::bigint[], ?::text[]) WITH ORDINALITY AS p(id, state, i) JOIN node n ON n.id = p.id),"
                    + " written AS (UPDATE node n SET attributes = n.attributes || jsonb_build_object('scheduler_state', p.state,"
                    + " 'scheduler_lastchecktime', to_char(statement_timestamp() AT TIME ZONE 'UTC',"
                    + " 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"+00:00\"'), 'last_job_info', (SELECT ?::jsonb) -> (p.i::int - 1)), mtime = now()"
                    + " FROM polled p WHERE n.id = p.id AND NOT coalesce((n.attributes ->> 'sealed')::boolean, false)"
                    + " AND (p.was IS DISTINCT FROM p.state OR coalesce((n.attributes ->> 'scheduler_lastchecktime')::timestamptz"
                    + " < statement_timestamp() - ? * interval '1 microsecond', true))"
                    + " RETURNING n.id, n.uuid, n.process_type, p.was, p.state AS now,"
                    + " p.was IS DISTINCT FROM p.state AS changed),"
                    + " events AS (INSERT INTO process_event (process_id, caller_id, from_state, to_state, time,"
                    + " scheduler_from, scheduler_to) SELECT r.node_id, r.parent_id, r.state, r.state, clock_timestamp(),"
                    + " w.was, w.now FROM written w JOIN process r ON r.node_id = w.id WHERE w.changed"
                    + " RETURNING id, process_id, caller_id, to_state, time, scheduler_from, scheduler_to)"
                    + " SELECT e.id, e.process_id, w.uuid, e.caller_id, w.process_type, e.to_state, e.time,"
                    + " e.scheduler_from, e.scheduler_to FROM events e JOIN written w ON w.id = e.process_id";

    private SchedulerStates() {}

    /**
     * Records {@code jobOfProcess} (what the listing said, by process node id) in {@code c}'s
     * transaction; returns the state changes written to {@code process_event}, to broadcast once
     * committed.
     */
    static List<StateChanged> record(Connection c, Map<Long, JobInfo> jobOfProcess, Duration refreshAfter)
            throws SQLException {
        List<StateChanged> changes = new ArrayList<>();
        if (jobOfProcess.isEmpty()) {
            return changes;
        }
        Long[] ids = jobOfProcess.keySet().toArray(Long[]::new);
        String[] states = new String[ids.length];
        List<Map<String, Object>> infos = new ArrayList<>(ids.length);
        for (int i = 0; i < ids.length; i++) {
            JobInfo job = jobOfProcess.get(ids[i]);
            states[i] = job.state().attributeValue();
            infos.add(job.asAttribute());
        }
        try (PreparedStatement s = c.prepareStatement(RECORD)) {
            s.setArray(1, c.createArrayOf("bigint", ids));
            s.setArray(2, c.createArrayOf("text", states));
            // one JSON array, read once (an initplan) and only when a row is written: a text per job cost the poll
            // that writes nothing several milliseconds per 200 jobs
            s.setString(3, JsonText.write(infos));
            s.setLong(4, refreshAfter.toNanos() / 1000);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    long caller = rs.getLong(4);
                    Long callerId = rs.wasNull() ? null : caller;
                    ProcessState state = ProcessState.fromDbValue(rs.getString(6));
                    changes.add(new StateChanged(
                            rs.getLong(1),
                            rs.getLong(2),
                            rs.getObject(3, UUID.class),
                            callerId,
                            rs.getString(5),
                            state,
                            state,
                            null,
                            rs.getObject(7, OffsetDateTime.class).toInstant(),
                            new StateChanged.SchedulerMove(rs.getString(8), rs.getString(9))));
                }
            }
        }
        return changes;
    }
}
