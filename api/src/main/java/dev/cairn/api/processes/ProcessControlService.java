package dev.cairn.api.processes;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Service;

import dev.cairn.engine.Engine;
import dev.cairn.engine.control.ProcessControl;
import dev.cairn.engine.launch.Launcher;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.CalculationNode;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.views.ProcessCriteria;

/**
 * Pause, play and kill for the server: one process, or every process a filter matches, each
 * through the engine's {@link ProcessControl} as the calling user. What cannot take the action
 * (a process that ended, a pause of a paused one) is refused, not an error of the whole request.
 */
@Service
public class ProcessControlService {

    /** The actions, by the name in the URL. */
    public enum Action {
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
        ProcessCriteria condition() {
            return switch (this) {
                case PAUSE -> ProcessCriteria.live(false);
                case PLAY -> ProcessCriteria.live(true);
                case KILL -> ProcessCriteria.live(null);
            };
        }
    }

    private final ProcessControl control;
    private final Launcher launcher;
    private final GraphStore graph;
    private final ProcessService processes;

    ProcessControlService(Engine engine, ProcessService processes) {
        this.control = engine.control();
        this.launcher = engine.launcher();
        this.graph = engine.graph();
        this.processes = processes;
    }

    /** The action on the process {@code ref} names, as the user {@code userId}; a refusal is a 409 saying why. */
    public ControlResult one(Action action, String ref, long userId) {
        long processId = processes.id(ref);
        ControlResult result = apply(action, processId, this.control.forUser(userId), new HashSet<>());
        if ("refused".equals(result.outcome())) {
            throw new ConflictException(
                    "cannot " + action.value() + " process " + result.process() + ": " + result.detail());
        }
        return result;
    }

    /** The action on every process {@code filter} matches that can take it, oldest first, at most {@code limit}. */
    public ControlReport many(Action action, ProcessFilter filter, boolean all, int limit, long userId) {
        if (filter.isEmpty() && !all) {
            throw new InvalidInputException("the filter is empty, so it matches every process: give a criterion"
                    + " (processes, state, type, label, caller, since, ...) or all=true to " + action.value()
                    + " every process that can be");
        }
        List<Long> ids = processes.ids(filter, action.condition(), limit + 1);
        boolean more = ids.size() > limit;
        if (more) {
            ids = ids.subList(0, limit);
        }
        ProcessControl control = this.control.forUser(userId);
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

    /**
     * Keeps the calculation {@code ref} names from serving as a cache source (its extra
     * {@code _cairn_valid_cache} becomes false), as the user {@code userId}; a workflow is refused.
     */
    public CacheValidity invalidateCache(String ref, long userId) {
        Node node = graph.load(processes.id(ref));
        if (!(node instanceof CalculationNode calculation)) {
            throw new InvalidInputException("process " + node.uuid() + " is a workflow (" + node.nodeType()
                    + "): workflows are never cache sources, only the calculations they call");
        }
        launcher.forUser(userId).invalidateCache(calculation);
        return new CacheValidity(node.uuid(), false);
    }

    /** {@code killed}: what this request killed already (a kill takes the live descendants along). */
    private ControlResult apply(Action action, long id, ProcessControl control, Set<Long> killed) {
        ProcessSummary p = processes.summary(id);
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
                    Map<Long, UUID> uuids = processes.uuids(done);
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
