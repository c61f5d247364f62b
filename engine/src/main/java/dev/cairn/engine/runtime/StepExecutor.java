package dev.cairn.engine.runtime;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import dev.cairn.engine.caching.CacheHit;
import dev.cairn.engine.caching.CachingPolicy;
import dev.cairn.engine.plugin.PluginRegistry;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.ChildProcess;
import dev.cairn.engine.process.Context;
import dev.cairn.engine.process.ExitCode;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.engine.process.ProcessInputs;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.engine.process.WorkChain;
import dev.cairn.engine.process.WorkChainDefinition;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.GraphTransaction;
import dev.cairn.storage.graph.LogEntry;
import dev.cairn.storage.graph.LogLevel;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.ProcessNode;
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
 * task was not acknowledged, so it runs again.
 */
public final class StepExecutor {

    static final String LOGGER = "cairn.engine";

    private final Database database;
    private final GraphStore graph;
    private final PluginRegistry registry;
    private final CachingPolicy caching;
    private final Computers computers;

    public StepExecutor(Database database, GraphStore graph, PluginRegistry registry, CachingPolicy caching) {
        this.database = Objects.requireNonNull(database);
        this.graph = Objects.requireNonNull(graph);
        this.registry = Objects.requireNonNull(registry);
        this.caching = Objects.requireNonNull(caching);
        this.computers = new Computers(database);
    }

    public PluginRegistry registry() {
        return registry;
    }

    public GraphStore graph() {
        return graph;
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
        try (Connection c = database.connection()) {
            c.setAutoCommit(false);
            try {
                Outbox.remove(c, publishedOutbox);
                StepOutcome outcome;
                try {
                    outcome = step(c, task);
                } catch (ProcessFault fault) {
                    // Nothing of the failed step stays: roll it all back, then record the failure.
                    c.rollback();
                    Outbox.remove(c, publishedOutbox);
                    outcome = recordFailure(c, task, fault.getCause(), killRequested.getAsBoolean());
                } catch (JobFailures.Failure failure) {
                    // the computer or its scheduler failed, not the process: try the step again later
                    c.rollback();
                    Outbox.remove(c, publishedOutbox);
                    outcome = killRequested.getAsBoolean()
                            ? recordFailure(c, task, failure, true)
                            : JobFailures.record(c, graph.inTransaction(c), task, failure);
                }
                c.commit();
                return outcome;
            } catch (SQLException | RuntimeException | Error e) {
                try {
                    c.rollback();
                } catch (SQLException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
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

    private StepOutcome step(Connection c, Task task) throws SQLException {
        Optional<ProcessRow> locked = ProcessTable.lock(c, task.processId());
        String skip = skipReason(locked, task);
        if (skip != null) {
            return StepOutcome.skip(skip);
        }
        ProcessRow row = locked.get();
        GraphTransaction g = graph.inTransaction(c);
        ProcessNode self = (ProcessNode) g.load(row.nodeId());
        try {
            ProcessDefinition definition = registry.get(row.entryPoint());
            return run(c, g, row, self, definition);
        } catch (StorageException | JobFailures.Failure e) {
            throw e;
        } catch (Exception | StackOverflowError e) {
            if (isConnectionFailure(e)) {
                throw new StorageException(
                        "the database connection failed in step " + row.step() + " of process " + row.nodeId(), e);
            }
            throw new ProcessFault(e);
        }
    }

    private StepOutcome recordFailure(Connection c, Task task, Throwable failure, boolean killed) throws SQLException {
        Optional<ProcessRow> locked = ProcessTable.lock(c, task.processId());
        String skip = skipReason(locked, task);
        if (skip != null) {
            return StepOutcome.skip(skip);
        }
        GraphTransaction g = graph.inTransaction(c);
        ProcessNode self = (ProcessNode) g.load(task.processId());
        if (killed) {
            self.setProcessStatus("Killed");
            return terminate(c, g, locked.get(), self, ProcessState.KILLED, new StepEffects());
        }
        return except(c, g, locked.get(), self, failure);
    }

    /** Why a task must not run (gone, terminated, a step already run, paused), or null when it must. */
    private static String skipReason(Optional<ProcessRow> locked, Task task) {
        if (locked.isEmpty()) {
            return "process " + task.processId() + " does not exist (deleted?)";
        }
        ProcessRow row = locked.get();
        if (row.state().isTerminal()) {
            return "process " + row.nodeId() + " is " + row.state().dbValue();
        }
        if (row.step() != task.step()) {
            return "process " + row.nodeId() + " is at step " + row.step() + "; step " + task.step() + " ran already";
        }
        if (row.paused()) {
            return "process " + row.nodeId() + " is paused";
        }
        return null;
    }

    private StepOutcome run(
            Connection c, GraphTransaction g, ProcessRow row, ProcessNode self, ProcessDefinition definition)
            throws Exception {
        Map<String, Node> inputs = new LinkedHashMap<>();
        g.inputsOf(row.nodeId()).forEach((label, node) -> inputs.put(ProcessSpec.portPath(label), node));
        ProcessInputs in = new ProcessInputs(inputs);
        StepEffects effects = new StepEffects();
        Caches caches = new Caches(caching, graph, computers);

        if (definition instanceof CalcJobDefinition job) {
            Optional<CacheHit> hit = "retrieve".equals(row.checkpoint().get("stage"))
                    ? Optional.empty()
                    : caches.lookup(g, definition, self, self.hash(), row.useCache());
            if (hit.isEmpty()) {
                return runJob(c, g, row, (CalcJobNode) self, job, in, effects);
            }
            caches.take(g, self, hit.get(), effects);
            storeEffects(g, effects);
            return terminate(c, g, row, self, ProcessState.FINISHED, effects);
        }

        if (!(definition instanceof WorkChainDefinition<?> chain)) {
            Optional<CacheHit> hit = caches.lookup(g, definition, self, self.hash(), row.useCache());
            if (hit.isPresent()) {
                caches.take(g, self, hit.get(), effects);
            } else {
                FunctionRunner.attach(
                        self, definition, FunctionRunner.invoke(definition, self, inputs, g, effects, caches), effects);
            }
            storeEffects(g, effects);
            return terminate(c, g, row, self, ProcessState.FINISHED, effects);
        }

        Checkpoint checkpoint = Checkpoint.fromJson(row.checkpoint());
        Context context = restoreContext(g, checkpoint);
        StepScope scope = new StepScope(g, self, in, context, effects, caches);
        WorkChainStepper.End end = advance(chain, checkpoint, scope, effects);
        effects.outputs.forEach((path, data) -> FunctionRunner.link(self, path, data, effects));
        storeEffects(g, effects);

        List<Task> tasks = new ArrayList<>();
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
        for (ChildProcess child : effects.children) {
            tasks.add(new Task(child.node().id(), 0));
        }

        if (end instanceof WorkChainStepper.Waiting waiting) {
            List<Checkpoint.Awaited> awaiting = effects.awaited.stream()
                    .map(a -> new Checkpoint.Awaited(a.child().node().id(), a.key(), a.append()))
                    .toList();
            Checkpoint next = new Checkpoint(waiting.frames(), context.toJson(), awaiting);
            self.setProcessState(ProcessState.WAITING.dbValue());
            self.setProcessStatus("Waiting for child processes: "
                    + awaiting.stream().map(a -> Long.toString(a.child())).collect(Collectors.joining(", ")));
            g.saveState(self, false);
            ProcessTable.endStep(
                    c, row.nodeId(), row.step() + 1, ProcessState.WAITING, false, effects.running(), next.toJson());
            List<Long> outbox = Outbox.add(c, tasks);
            return new StepOutcome(tasks, outbox, List.of(change(row, ProcessState.WAITING, null)), null);
        }

        ExitCode exit = ((WorkChainStepper.Ended) end).exitCode();
        if (exit.isOk()) {
            Map<String, Data> all = new LinkedHashMap<>();
            g.outputsOf(self.id()).forEach((label, node) -> all.put(ProcessSpec.portPath(label), (Data) node));
            ExitCode wrong = definition.spec().checkOutputs(all);
            if (wrong != null) {
                exit = wrong;
            }
        }
        self.setExitStatus(exit.status());
        if (!exit.message().isEmpty()) {
            self.setExitMessage(exit.message());
        }
        StepOutcome ended = terminate(c, g, row, self, ProcessState.FINISHED, effects);
        List<Long> outbox = Outbox.add(c, tasks);
        List<Task> all = new ArrayList<>(tasks);
        all.addAll(ended.tasks());
        List<Long> allOutbox = new ArrayList<>(outbox);
        allOutbox.addAll(ended.outboxIds());
        return new StepOutcome(all, allOutbox, ended.changes(), null);
    }

    private StepOutcome runJob(
            Connection c,
            GraphTransaction g,
            ProcessRow row,
            CalcJobNode self,
            CalcJobDefinition job,
            ProcessInputs in,
            StepEffects effects)
            throws Exception {
        CalcJobRunner jobs = new CalcJobRunner(computers, graph);
        if (!"retrieve".equals(row.checkpoint().get("stage"))) {
            CalcJobRunner.Waiting waiting = jobs.submit(c, job, self, in, effects);
            effects.outputs.forEach((path, data) -> FunctionRunner.link(self, path, data, effects));
            storeEffects(g, effects);
            CalcJobRunner.watch(c, self.id(), waiting.computerId(), waiting.jobId());
            self.setProcessState(ProcessState.WAITING.dbValue());
            self.setProcessStatus("Waiting for the scheduler: job " + waiting.jobId());
            g.saveState(self, false);
            ProcessTable.endStep(
                    c, row.nodeId(), row.step() + 1, ProcessState.WAITING, false, 0, "{\"stage\":\"retrieve\"}");
            return new StepOutcome(List.of(), List.of(), List.of(change(row, ProcessState.WAITING, null)), null);
        }
        try {
            FunctionRunner.attach(self, job, jobs.retrieve(c, job, self, in, effects), effects);
            storeEffects(g, effects);
        } finally {
            effects.scratch.forEach(CalcJobRunner::deleteTree);
        }
        return terminate(c, g, row, self, ProcessState.FINISHED, effects);
    }

    private static <W extends WorkChain> WorkChainStepper.End advance(
            WorkChainDefinition<W> chain, Checkpoint checkpoint, StepScope scope, StepEffects effects)
            throws Exception {
        return WorkChainStepper.advance(chain, checkpoint.frames(), scope, effects);
    }

    /** The context of a checkpoint with its nodes loaded and the awaited children put in, in one query. */
    private static Context restoreContext(GraphTransaction g, Checkpoint checkpoint) {
        List<Long> ids = new ArrayList<>(Context.nodeIds(checkpoint.context()));
        checkpoint.awaiting().forEach(a -> ids.add(a.child()));
        Map<Long, Node> nodes = ids.isEmpty() ? Map.of() : g.loadAll(ids);
        Map<Long, Node> found = new HashMap<>(nodes);
        Context context = Context.fromJson(checkpoint.context(), id -> {
            Node n = found.get(id);
            if (n == null) {
                throw new IllegalStateException("the checkpoint refers to node " + id + ", which no longer exists");
            }
            return n;
        });
        for (Checkpoint.Awaited a : checkpoint.awaiting()) {
            Node child = found.get(a.child());
            if (a.append()) {
                context.append(a.key(), child);
            } else {
                context.put(a.key(), child);
            }
        }
        return context;
    }

    private static void storeEffects(GraphTransaction g, StepEffects effects) {
        g.storeAll(effects.nodes());
        Map<WorkflowNode, Map<String, Data>> returns = new LinkedHashMap<>();
        for (StepEffects.ReturnLink link : effects.returnLinks) {
            returns.computeIfAbsent(link.workflow(), w -> new LinkedHashMap<>()).put(link.label(), link.data());
        }
        returns.forEach(g::addReturnLinks);
        g.appendLogs(effects.reports.stream()
                .map(r -> LogEntry.of(r.node().id(), LogLevel.REPORT, LOGGER, r.message()))
                .toList());
    }

    /** Ends a process in {@code state} (its exit status set before), seals it and wakes its parent. */
    private StepOutcome terminate(
            Connection c, GraphTransaction g, ProcessRow row, ProcessNode self, ProcessState state, StepEffects effects)
            throws SQLException {
        self.setProcessState(state.dbValue());
        if (state != ProcessState.KILLED) {
            self.setProcessStatus(null);
        }
        g.saveState(self, true);
        ProcessTable.endStep(c, row.nodeId(), row.step() + 1, state, false, 0, "{}");
        List<Task> tasks = new ArrayList<>();
        if (row.parentId() != null && row.awaited()) {
            ProcessTable.childTerminated(c, row.parentId()).ifPresent(tasks::add);
        }
        List<Long> outbox = Outbox.add(c, tasks);
        return new StepOutcome(tasks, outbox, List.of(change(row, state, self.exitStatus())), null);
    }

    private StepOutcome except(Connection c, GraphTransaction g, ProcessRow row, ProcessNode self, Throwable failure)
            throws SQLException {
        self.setException(stackTrace(failure));
        g.appendLogs(List.of(LogEntry.of(self.id(), LogLevel.ERROR, LOGGER, "excepted: " + failure)));
        return terminate(c, g, row, self, ProcessState.EXCEPTED, new StepEffects());
    }

    private static StateChange change(ProcessRow row, ProcessState to, Integer exitStatus) {
        return new StateChange(row.nodeId(), row.entryPoint(), row.state(), to, exitStatus);
    }

    static String stackTrace(Throwable t) {
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        return out.toString();
    }

    /** True when the failure is the database connection, not the process: the step must run again. */
    private static boolean isConnectionFailure(Throwable t) {
        for (Throwable x = t; x != null; x = x.getCause()) {
            if (x instanceof SQLException e
                    && e.getSQLState() != null
                    && e.getSQLState().startsWith("08")) {
                return true;
            }
        }
        return false;
    }
}
