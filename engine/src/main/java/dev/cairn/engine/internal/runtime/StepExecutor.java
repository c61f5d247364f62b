package dev.cairn.engine.internal.runtime;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import dev.cairn.engine.caching.CachingPolicy;
import dev.cairn.engine.events.StateChanged;
import dev.cairn.engine.internal.caching.CacheHit;
import dev.cairn.engine.internal.calcjob.CalcJobRunner;
import dev.cairn.engine.internal.calcjob.ComputerAccess;
import dev.cairn.engine.internal.calcjob.Computers;
import dev.cairn.engine.internal.calcjob.JobFailures;
import dev.cairn.engine.internal.state.EngineLog;
import dev.cairn.engine.internal.state.JobCheckpoint;
import dev.cairn.engine.internal.state.Outbox;
import dev.cairn.engine.internal.state.ProcessRow;
import dev.cairn.engine.internal.state.ProcessStates;
import dev.cairn.engine.internal.state.ProcessTable;
import dev.cairn.engine.internal.state.Task;
import dev.cairn.engine.internal.state.WorkChainCheckpoint;
import dev.cairn.engine.plugin.PluginRegistry;
import dev.cairn.engine.process.CalcFunction;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.ChildProcess;
import dev.cairn.engine.process.Context;
import dev.cairn.engine.process.ExitCode;
import dev.cairn.engine.process.Outputs;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.engine.process.ProcessInputs;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.engine.process.WorkChain;
import dev.cairn.engine.process.WorkChainDefinition;
import dev.cairn.engine.process.WorkFunction;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.Transactions;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.GraphTransaction;
import dev.cairn.storage.graph.LogLevel;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.ObjectStoreErrors;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.SqlErrors;
import dev.cairn.storage.graph.StorageException;
import dev.cairn.storage.graph.WorkflowNode;

/**
 * Runs one step of a process, durably: with the process row locked, it loads the
 * checkpoint, runs the process until it waits or ends, and commits in ONE transaction the
 * new nodes and links, the checkpoint with the next step number, the state, a waiting
 * parent's wake-up and the outbox rows of the tasks to send. A task that names a step
 * already committed is skipped, so redelivered and duplicated tasks change nothing.
 * <p>
 * A failure of the process's own code rolls the step back to a savepoint and ends the
 * process EXCEPTED with the exception and its stack trace, in the same transaction. A
 * failure of the database or the connection rolls everything back and is thrown: the
 * task was not acknowledged, so it runs again. The nodes a step stores belong to the
 * process's user.
 */
public final class StepExecutor {

    private final Database database;
    private final GraphStore graph;
    private final PluginRegistry registry;
    private final CachingPolicy caching;
    private final Computers computers;
    private final ProcessStates states;
    private final ComputerAccess access;
    private final LongAdder cacheHits;

    /**
     * @param access    the computers' transports, which the engine owns and closes
     * @param cacheHits counts the calculations that take their outputs from the cache
     */
    public StepExecutor(
            Database database,
            GraphStore graph,
            PluginRegistry registry,
            CachingPolicy caching,
            ProcessStates states,
            ComputerAccess access,
            LongAdder cacheHits) {
        this.cacheHits = Objects.requireNonNull(cacheHits);
        this.database = Objects.requireNonNull(database);
        this.graph = Objects.requireNonNull(graph);
        this.registry = Objects.requireNonNull(registry);
        this.caching = Objects.requireNonNull(caching);
        this.states = Objects.requireNonNull(states);
        this.access = Objects.requireNonNull(access);
        this.computers = new Computers(database);
    }

    public PluginRegistry registry() {
        return registry;
    }

    public GraphStore graph() {
        return graph;
    }

    public ProcessStates states() {
        return states;
    }

    /** Records of the functions clients run themselves, stored through {@code as} (the user who ran them). */
    public FunctionRecords functionRecords(GraphStore as) {
        return new FunctionRecords(database, as, new Caches(caching, as, computers, access, cacheHits), states);
    }

    /**
     * Runs the step {@code task} names and commits it.
     *
     * @param publishedOutbox outbox rows published since the last step, deleted in this
     *                        step's transaction (saves a commit per step)
     * @throws StorageException when the database fails; nothing was committed
     */
    public StepOutcome execute(Task task, List<Long> publishedOutbox) {
        return execute(task, publishedOutbox, () -> false);
    }

    /**
     * As {@link #execute(Task, List)}, for a worker that interrupts a step when a kill
     * arrives: a step that fails while {@code killRequested} says so ends the process
     * KILLED, not EXCEPTED (the interruption is the kill, not a fault of the process).
     */
    public StepOutcome execute(Task task, List<Long> publishedOutbox, BooleanSupplier killRequested) {
        try {
            return Transactions.run(database, c -> {
                Outbox.remove(c, publishedOutbox);
                try {
                    return step(c, task, killRequested);
                } catch (ProcessFault fault) {
                    // Nothing of the failed step stays: roll it all back, then record the failure.
                    c.rollback();
                    Outbox.remove(c, publishedOutbox);
                    return recordFailure(c, task, fault.getCause(), killRequested.getAsBoolean());
                } catch (JobFailures.Failure failure) {
                    // the computer or its scheduler failed, not the process: try the step again later
                    c.rollback();
                    Outbox.remove(c, publishedOutbox);
                    return killRequested.getAsBoolean()
                            ? recordFailure(c, task, failure, true)
                            : recordJobFailure(c, task, failure);
                }
            });
        } catch (SQLException e) {
            throw new StorageException("running step " + task.step() + " of process " + task.processId(), e);
        }
    }

    /** The process's own code failed; carries the failure out of the step. */
    private static final class ProcessFault extends RuntimeException {
        ProcessFault(Throwable cause) {
            super(cause);
        }
    }

    private StepOutcome step(Connection c, Task task, BooleanSupplier killRequested) throws SQLException {
        TaskLock.Locked l;
        switch (TaskLock.take(c, graph, task)) {
            case TaskLock.Skip skip -> {
                return StepOutcome.skip(skip.why());
            }
            case TaskLock.Locked locked -> l = locked;
        }
        if (killRequested.getAsBoolean()) {
            // the kill's signal came before the step held the row: the kill waits for it, so it must not run
            return terminate(c, l, ProcessState.KILLED, List.of());
        }
        ProcessRow row = l.row();
        try {
            return run(c, l, registry.get(row.entryPoint()));
        } catch (StorageException | JobFailures.Failure e) {
            throw e;
        } catch (Exception | StackOverflowError e) {
            if (SqlErrors.causedByConnectionFailure(e)) {
                throw new StorageException(
                        "the database connection failed in step " + row.step() + " of process " + row.nodeId(), e);
            }
            if (ObjectStoreErrors.causedByBucketOutage(e)) {
                // the S3 service, not the process, failed: the step rolls back and is tried again, as above
                throw new StorageException(
                        "the object store's bucket failed in step " + row.step() + " of process " + row.nodeId(), e);
            }
            throw new ProcessFault(e);
        }
    }

    private StepOutcome recordFailure(Connection c, Task task, Throwable failure, boolean killed) throws SQLException {
        TaskLock.Locked l;
        switch (TaskLock.take(c, graph, task)) {
            case TaskLock.Skip skip -> {
                return StepOutcome.skip(skip.why());
            }
            case TaskLock.Locked locked -> l = locked;
        }
        if (killed) {
            return terminate(c, l, ProcessState.KILLED, List.of());
        }
        l.self().setException(stackTrace(failure));
        l.g().appendLogs(List.of(EngineLog.of(l.self().id(), LogLevel.ERROR, "excepted: " + failure)));
        return terminate(c, l, ProcessState.EXCEPTED, List.of());
    }

    private StepOutcome recordJobFailure(Connection c, Task task, JobFailures.Failure failure) throws SQLException {
        return switch (TaskLock.take(c, graph, task)) {
            case TaskLock.Skip skip ->
                StepOutcome.skip(skip.why() + "; its job step had failed: " + failure.getMessage());
            case TaskLock.Locked l -> {
                JobFailures.record(c, l.g(), states, l.row(), l.self(), failure);
                yield StepOutcome.NOTHING;
            }
        };
    }

    private StepOutcome run(Connection c, TaskLock.Locked l, ProcessDefinition definition) throws Exception {
        Map<String, Node> inputs = new LinkedHashMap<>();
        l.g().inputsOf(l.row().nodeId()).forEach((label, node) -> inputs.put(ProcessSpec.portPath(label), node));
        StepEffects effects = new StepEffects();
        Caches caches = new Caches(caching, graph, computers, access, cacheHits);
        return switch (definition) {
            case CalcFunction f -> runFunction(c, l, f, inputs, effects, caches);
            case WorkFunction f -> runFunction(c, l, f, inputs, effects, caches);
            case WorkChainDefinition<?> chain -> runWorkChain(c, l, chain, new ProcessInputs(inputs), effects, caches);
            case CalcJobDefinition job -> runJob(c, l, job, new ProcessInputs(inputs), effects, caches);
        };
    }

    private StepOutcome runFunction(
            Connection c,
            TaskLock.Locked l,
            ProcessDefinition function,
            Map<String, Node> inputs,
            StepEffects effects,
            Caches caches)
            throws Exception {
        ProcessNode self = l.self();
        Optional<CacheHit> hit =
                caches.lookup(l.g(), function, self, self.hash(), l.row().useCache());
        if (hit.isPresent()) {
            caches.take(l.g(), self, hit.get(), effects);
        } else {
            Outputs outputs = FunctionRunner.invoke(function, self, inputs, l.g(), effects, caches, states);
            FunctionRunner.attach(self, function, outputs, effects);
        }
        storeEffects(l.g(), effects);
        return terminate(c, l, ProcessState.FINISHED, List.of());
    }

    private StepOutcome runWorkChain(
            Connection c,
            TaskLock.Locked l,
            WorkChainDefinition<?> chain,
            ProcessInputs in,
            StepEffects effects,
            Caches caches)
            throws Exception {
        ProcessNode self = l.self();
        WorkChainCheckpoint checkpoint = WorkChainCheckpoint.fromJson(l.row().checkpoint());
        Context context = WorkChainStepper.restoreContext(l.g(), checkpoint);
        StepScope scope = new StepScope(l.g(), self, in, context, effects, caches, states);
        WorkChainStepper.End end = advance(chain, checkpoint, scope, effects);
        effects.outputs.forEach((path, data) -> FunctionRunner.link(self, path, data, effects));
        storeEffects(l.g(), effects);
        List<Task> tasks = launchChildren(c, self, effects);

        if (end instanceof WorkChainStepper.Waiting waiting) {
            List<WorkChainCheckpoint.Awaited> awaiting = effects.awaited.stream()
                    .map(a -> new WorkChainCheckpoint.Awaited(a.child().node().id(), a.key(), a.append()))
                    .toList();
            String status = "Waiting for child processes: "
                    + awaiting.stream().map(a -> Long.toString(a.child())).collect(Collectors.joining(", "));
            StateChanged change = states.waiting(
                    c,
                    l.g(),
                    l.row(),
                    self,
                    status,
                    effects.running(),
                    new WorkChainCheckpoint(waiting.frames(), context.toJson(), awaiting));
            return new StepOutcome(tasks, Outbox.add(c, tasks), List.of(change), null);
        }

        ExitCode exit = ((WorkChainStepper.Ended) end).exitCode();
        if (exit.isOk()) {
            Map<String, Data> all = new LinkedHashMap<>();
            l.g().outputsOf(self.id()).forEach((label, node) -> all.put(ProcessSpec.portPath(label), (Data) node));
            ExitCode wrong = chain.spec().checkOutputs(all);
            if (wrong != null) {
                exit = wrong;
            }
        }
        self.setExitStatus(exit.status());
        if (!exit.message().isEmpty()) {
            self.setExitMessage(exit.message());
        }
        return terminate(c, l, ProcessState.FINISHED, tasks);
    }

    /** Rows and first tasks of the children the step submitted, which start once it commits. */
    private static List<Task> launchChildren(Connection c, ProcessNode self, StepEffects effects) throws SQLException {
        ProcessTable.insert(
                c,
                effects.children.stream()
                        .map(child -> new ProcessTable.NewProcess(
                                child.node().id(),
                                child.definition().entryPoint(),
                                self.id(),
                                effects.isAwaited(child),
                                child.useCache()))
                        .toList());
        List<Task> tasks = new ArrayList<>();
        for (ChildProcess child : effects.children) {
            tasks.add(new Task(child.node().id(), 0));
        }
        return tasks;
    }

    /** A calculation job's step: submit (or take it from the cache), or retrieve once its job is done. */
    private StepOutcome runJob(
            Connection c,
            TaskLock.Locked l,
            CalcJobDefinition job,
            ProcessInputs in,
            StepEffects effects,
            Caches caches)
            throws Exception {
        CalcJobNode self = (CalcJobNode) l.self();
        CalcJobRunner jobs = new CalcJobRunner(computers, graph, access);
        return switch (JobCheckpoint.fromJson(l.row().checkpoint()).stage()) {
            case SUBMIT -> {
                Optional<CacheHit> hit =
                        caches.lookup(l.g(), job, self, self.hash(), l.row().useCache());
                if (hit.isPresent()) {
                    caches.take(l.g(), self, hit.get(), effects);
                    storeEffects(l.g(), effects);
                    yield terminate(c, l, ProcessState.FINISHED, List.of());
                }
                CalcJobRunner.Submitted submitted = jobs.submit(c, job, self, in);
                FunctionRunner.link(self, "remote_folder", submitted.remoteFolder(), effects);
                submitted.report().ifPresent(r -> effects.reports.add(new StepEffects.Report(self, r)));
                storeEffects(l.g(), effects);
                CalcJobRunner.watch(c, self.id(), submitted.computerId(), submitted.jobId());
                StateChanged change = states.waiting(
                        c,
                        l.g(),
                        l.row(),
                        self,
                        "Waiting for the scheduler: job " + submitted.jobId(),
                        0,
                        JobCheckpoint.RETRIEVE);
                yield new StepOutcome(List.of(), List.of(), List.of(change), null);
            }
            case RETRIEVE -> {
                CalcJobRunner.Retrieved retrieved = jobs.retrieve(c, job, self, in);
                try {
                    FunctionRunner.attach(self, job, retrieved.outputs(), effects);
                    storeEffects(l.g(), effects);
                } finally {
                    CalcJobRunner.deleteTree(retrieved.scratch());
                }
                yield terminate(c, l, ProcessState.FINISHED, List.of());
            }
        };
    }

    private static <W extends WorkChain> WorkChainStepper.End advance(
            WorkChainDefinition<W> chain, WorkChainCheckpoint checkpoint, StepScope scope, StepEffects effects)
            throws Exception {
        return WorkChainStepper.advance(chain, checkpoint.frames(), scope, effects);
    }

    private static void storeEffects(GraphTransaction g, StepEffects effects) {
        g.storeAll(effects.nodes());
        Map<WorkflowNode, Map<String, Data>> returns = new LinkedHashMap<>();
        for (StepEffects.ReturnLink link : effects.returnLinks) {
            returns.computeIfAbsent(link.workflow(), w -> new LinkedHashMap<>()).put(link.label(), link.data());
        }
        returns.forEach(g::addReturnLinks);
        g.appendLogs(effects.reports.stream()
                .map(r -> EngineLog.of(r.node().id(), LogLevel.REPORT, r.message()))
                .toList());
    }

    /** Ends the process in {@code state} (its exit status set before) and sends its tasks, a waiting caller's among them. */
    private StepOutcome terminate(Connection c, TaskLock.Locked l, ProcessState state, List<Task> tasks)
            throws SQLException {
        ProcessStates.Ended ended = states.end(c, l.g(), l.row(), l.self(), state);
        List<Task> all = new ArrayList<>(tasks);
        ended.wake().ifPresent(all::add);
        return new StepOutcome(all, Outbox.add(c, all), List.of(ended.change()), null);
    }

    static String stackTrace(Throwable t) {
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
