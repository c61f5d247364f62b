package dev.cairn.api.processes;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Component;

import dev.cairn.api.web.ProcessRefs;
import dev.cairn.engine.Engine;
import dev.cairn.engine.control.ProcessControl;
import dev.cairn.errors.ConflictException;
import dev.cairn.errors.InvalidInputException;
import dev.cairn.errors.NotFoundException;

/**
 * Pause, play and kill for the server: one process, or every process a filter matches, each
 * through the engine's {@link ProcessControl} as the calling user. What cannot take the action
 * (a process that ended, a pause of a paused one) is refused, not an error of the whole request.
 */
@Component
class Controls {

    /** The actions, by the name in the URL. */
    enum Action {
        PAUSE("paused"),
        PLAY("played"),
        KILL("killed");

        final String done;

        Action(String done) {
            this.done = done;
        }

        String value() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** What a process must be for the action to apply: live, and for pause and play, not or already paused. */
        String condition() {
            String live = "n.attributes ->> 'process_state' IN ('created', 'waiting')";
            return switch (this) {
                case PAUSE -> live + " AND NOT coalesce(n.attributes -> 'paused' = 'true'::jsonb, false)";
                case PLAY -> live + " AND coalesce(n.attributes -> 'paused' = 'true'::jsonb, false)";
                case KILL -> live;
            };
        }
    }

    private final Engine engine;
    private final ProcessQueries queries;
    private final ProcessRefs refs;

    Controls(Engine engine, ProcessQueries queries, ProcessRefs refs) {
        this.engine = engine;
        this.queries = queries;
        this.refs = refs;
    }

    /** The action on one process; a refusal is a 409 saying why. */
    ControlResult one(Action action, long processId, long userId) {
        ControlResult result = apply(action, processId, engine.control().forUser(userId), new HashSet<>());
        if ("refused".equals(result.outcome())) {
            throw new ConflictException(
                    "cannot " + action.value() + " process " + result.process() + ": " + result.detail());
        }
        return result;
    }

    /** The action on every process {@code filter} matches that can take it, oldest first, at most {@code limit}. */
    ControlReport many(Action action, ProcessFilter filter, boolean all, int limit, long userId) {
        if (filter.isEmpty() && !all) {
            throw new InvalidInputException("the filter is empty, so it matches every process: give a criterion"
                    + " (processes, state, type, label, caller, since, ...) or all=true to " + action.value()
                    + " every process that can be");
        }
        ProcessConditions where = ProcessConditions.of(filter, refs).and(action.condition());
        List<Long> ids = queries.ids(where, limit + 1);
        boolean more = ids.size() > limit;
        if (more) {
            ids = ids.subList(0, limit);
        }
        ProcessControl control = engine.control().forUser(userId);
        Set<Long> killed = new HashSet<>();
        List<ControlResult> results = new ArrayList<>(ids.size());
        int matched = 0;
        for (long id : ids) {
            ControlResult r = apply(action, id, control, killed);
            results.add(r);
            if (!"refused".equals(r.outcome())) {
                matched++;
            }
        }
        return new ControlReport(action.value(), matched, more, results);
    }

    /** {@code killed}: what this request killed already (a kill takes the live descendants along). */
    private ControlResult apply(Action action, long id, ProcessControl control, Set<Long> killed) {
        ProcessSummary p = queries.summary(id);
        if (killed.contains(id)) {
            return new ControlResult(p.uuid(), p.entryPoint(), "killed", "with its caller", null);
        }
        String refusal = refusal(action, p);
        if (refusal != null) {
            return refused(p, refusal);
        }
        try {
            switch (action) {
                case PAUSE -> control.pause(id);
                case PLAY -> control.play(id);
                case KILL -> {
                    List<Long> done = control.kill(id);
                    killed.addAll(done);
                    if (!done.contains(id)) {
                        return refused(p, "it ended before the kill came");
                    }
                    Map<Long, UUID> uuids = queries.uuids(done);
                    return new ControlResult(
                            p.uuid(),
                            p.entryPoint(),
                            action.done,
                            null,
                            done.stream().map(uuids::get).toList());
                }
            }
        } catch (ConflictException | NotFoundException e) {
            // it ended (or was never stepped) between the look and the action
            return refused(p, e.getMessage());
        }
        return new ControlResult(p.uuid(), p.entryPoint(), action.done, null, null);
    }

    private static String refusal(Action action, ProcessSummary p) {
        if (!"created".equals(p.state()) && !"waiting".equals(p.state())) {
            return "it is " + p.state();
        }
        if (action == Action.PAUSE && p.paused()) {
            return "it is paused already";
        }
        if (action == Action.PLAY && !p.paused()) {
            return "it is not paused";
        }
        return null;
    }

    private static ControlResult refused(ProcessSummary p, String why) {
        return new ControlResult(p.uuid(), p.entryPoint(), "refused", why, null);
    }
}
