package dev.cairn.api.processes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Service;

import dev.cairn.engine.Engine;
import dev.cairn.engine.computers.WorkdirRemoval;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.computers.ComputerStore;
import dev.cairn.storage.graph.computers.RemoteWorkdirs;
import dev.cairn.storage.views.ProcessCriteria;

/**
 * Removes the working folders calculation jobs left on their computers ({@code verdi calcjob cleanworkdir}):
 * those of the jobs a filter matches and of the jobs the workflows it matches called, at any depth. A job
 * still running, or called by a process still running (a later step may read its folder), is skipped, and
 * so is one cleaned before; each removed folder is recorded ({@link RemoteWorkdirs}), which
 * keeps the jobs whose folder it was from serving as cache sources.
 */
@Service
public class WorkdirCleaning {

    private final Engine engine;
    private final ProcessService processes;
    private final RemoteWorkdirs workdirs;
    private final ComputerStore computers;

    WorkdirCleaning(Engine engine, ProcessService processes) {
        this.engine = engine;
        this.processes = processes;
        this.workdirs = engine.storage().remoteWorkdirs();
        this.computers = engine.storage().computers();
    }

    /**
     * Cleans (or with {@code dryRun} tells what it would clean) the folders of the jobs of the processes
     * {@code filter} matches, at most {@code max} processes: a filter that matches more is refused, to be
     * narrowed (by time, type, label, group).
     */
    public WorkdirReport clean(ProcessFilter filter, boolean all, boolean dryRun, int max) {
        if (filter.isEmpty() && !all) {
            throw new InvalidInputException("the filter is empty, so it matches every process: give a criterion"
                    + " (processes, type, label, group, until, ...) or all=true to clean the working folders of"
                    + " every calculation job that ended");
        }
        List<Long> ids = processes.ids(filter, ProcessCriteria.ANY, max + 1);
        if (ids.size() > max) {
            throw new InvalidInputException("the filter matches more than " + max + " processes"
                    + " (cairn.limits.batch-max): narrow it, by time (until), type, label or group");
        }
        List<RemoteWorkdirs.Workdir> found = workdirs.of(ids);
        Map<Long, WorkdirReport.Job> results = new HashMap<>();
        Map<Long, List<RemoteWorkdirs.Workdir>> toClean = new LinkedHashMap<>();
        Map<Long, Computer> byId = new HashMap<>();
        for (RemoteWorkdirs.Workdir w : found) {
            Computer computer = w.computerId() == null ? null : byId.computeIfAbsent(w.computerId(), computers::get);
            String skip = skipped(w);
            if (skip != null) {
                results.put(w.jobId(), job(w, computer, "skipped", skip));
            } else if (dryRun) {
                results.put(w.jobId(), job(w, computer, "would clean", null));
            } else {
                toClean.computeIfAbsent(w.computerId(), k -> new ArrayList<>()).add(w);
            }
        }
        toClean.forEach((computerId, these) -> remove(byId.get(computerId), these, results));
        List<WorkdirReport.Job> jobs =
                found.stream().map(w -> results.get(w.jobId())).toList();
        return new WorkdirReport(dryRun, count(jobs, dryRun ? "would clean" : "cleaned"), count(jobs, "failed"), jobs);
    }

    /** Removes the folders of {@code these} jobs on {@code computer}, and records those removed. */
    private void remove(Computer computer, List<RemoteWorkdirs.Workdir> these, Map<Long, WorkdirReport.Job> results) {
        List<WorkdirRemoval.Outcome> outcomes = engine.removeWorkdirs(
                computer, these.stream().map(RemoteWorkdirs.Workdir::path).toList());
        List<String> removed = new ArrayList<>();
        for (int i = 0; i < these.size(); i++) {
            RemoteWorkdirs.Workdir w = these.get(i);
            WorkdirRemoval.Outcome outcome = outcomes.get(i);
            if (outcome.removed()) {
                removed.add(outcome.path());
                results.put(w.jobId(), job(w, computer, "cleaned", null));
            } else {
                results.put(w.jobId(), job(w, computer, "failed", outcome.failure()));
            }
        }
        workdirs.markRemoved(computer.id(), removed);
    }

    private static int count(List<WorkdirReport.Job> jobs, String outcome) {
        return (int) jobs.stream().filter(j -> j.outcome().equals(outcome)).count();
    }

    /** Why the job's folder is left alone, or null when it is to be removed. */
    private static String skipped(RemoteWorkdirs.Workdir w) {
        if (!ProcessState.fromDbValue(w.state()).isTerminal()) {
            return "it is " + w.state();
        }
        if (w.liveCaller()) {
            return "a process that called it is still running";
        }
        if (w.path() == null || w.computerId() == null) {
            return "it has no working folder: it never reached a computer";
        }
        if (w.cleaned()) {
            return "its folder was cleaned before";
        }
        return null;
    }

    private static WorkdirReport.Job job(RemoteWorkdirs.Workdir w, Computer computer, String outcome, String detail) {
        return new WorkdirReport.Job(w.job(), computer == null ? null : computer.label(), w.path(), outcome, detail);
    }
}
