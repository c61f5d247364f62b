package dev.cairn.engine.launch;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import dev.cairn.engine.internal.caching.CacheLookup;
import dev.cairn.engine.internal.calcjob.CalcJobRunner;
import dev.cairn.engine.internal.calcjob.ComputerAccess;
import dev.cairn.engine.internal.calcjob.Computers;
import dev.cairn.engine.internal.runtime.ProcessNodes;
import dev.cairn.engine.internal.runtime.StepExecutor;
import dev.cairn.engine.internal.state.Outbox;
import dev.cairn.engine.internal.state.ProcessTable;
import dev.cairn.engine.internal.state.Task;
import dev.cairn.engine.internal.state.TaskSink;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.FunctionCall;
import dev.cairn.engine.process.FunctionEnding;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.engine.process.ProcessInputs;
import dev.cairn.engine.process.ProcessResult;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.Transactions;
import dev.cairn.storage.errors.UnavailableException;
import dev.cairn.storage.graph.CachingExtras;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.GraphTransaction;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.StorageException;
import dev.cairn.storage.graph.WorkFunctionNode;
import dev.cairn.storage.visibility.Internal;

/**
 * Starts processes. Inputs are validated against the spec before anything is stored; then
 * the process node, its inputs, its process row and its first task commit together.
 * {@link #submit} hands the task to the workers; {@link #run} runs the process (and any
 * children) in this thread and returns its outputs.
 */
public final class Launcher {

    private static final Logger LOG = System.getLogger(Launcher.class.getName());

    /**
     * One process to start.
     *
     * @param caller the open run of a client's workflow function that launches it, linked as its
     *               caller and its parent (a kill of the run reaches it); null for a launch of its own
     */
    public record Launch(ProcessDefinition definition, Inputs inputs, ProcessNode caller) {

        /** A launch of its own, called by no process. */
        public Launch(ProcessDefinition definition, Inputs inputs) {
            this(definition, inputs, null);
        }
    }

    private final Database database;
    private final GraphStore graph;
    private final StepExecutor executor;
    private final TaskSink workers;
    private final ComputerAccess access;

    /**
     * @param graph   stores as the user who launches: the processes, their inputs and all
     *                they make belong to that user
     * @param workers where submitted tasks go; null when this launcher only runs in-process
     * @param access  the computers' transports, for in-process runs and dry runs of calculation jobs
     */
    @Internal
    public Launcher(
            Database database, GraphStore graph, StepExecutor executor, TaskSink workers, ComputerAccess access) {
        this.database = Objects.requireNonNull(database);
        this.graph = Objects.requireNonNull(graph);
        this.executor = Objects.requireNonNull(executor);
        this.workers = workers;
        this.access = Objects.requireNonNull(access);
    }

    /** This launcher acting for {@code userId}: what it launches, and all the processes make, belongs to that user. */
    public Launcher forUser(long userId) {
        GraphStore as = graph.forUser(userId);
        return as == graph ? this : new Launcher(database, as, executor, workers, access);
    }

    /**
     * Checks one launch as {@link #submit} and {@link #submitAll} would, storing nothing: the
     * inputs against the spec (required ports, classes, defaults, validators), and what the
     * launch adds to them (job options and a computer only for a calculation job, the options
     * against the scheduler, a computer for a portable code). A batch checks each launch with
     * this first, so that a refusal can say which launch it was.
     *
     * @throws dev.cairn.storage.errors.InvalidInputException naming what is wrong (a
     *     {@link dev.cairn.engine.process.InvalidInputsException} listing the inputs' problems by port)
     */
    public void validate(ProcessDefinition definition, Inputs inputs) {
        create(List.of(new Launch(definition, inputs)));
    }

    /** Submits one process to the workers; returns its stored node. */
    public ProcessNode submit(ProcessDefinition definition, Inputs inputs) {
        return submit(new Launch(definition, inputs));
    }

    /** Submits one launch to the workers; returns its stored node. */
    public ProcessNode submit(Launch launch) {
        return submitAll(List.of(launch)).getFirst();
    }

    /**
     * Submits many processes in one transaction and one confirmed publish. Once the transaction
     * commits the launch stands: when the broker cannot take the tasks, they stay in the outbox,
     * and the workers' outbox relays send them once it is back.
     *
     * @throws dev.cairn.storage.errors.UnavailableException when the database cannot be reached; nothing was stored
     */
    public List<ProcessNode> submitAll(List<Launch> launches) {
        if (workers == null) {
            throw new IllegalStateException("this launcher has no broker: use run(...) or connect one");
        }
        List<ProcessNode> nodes = create(launches);
        List<Long> outbox = commit(launches, nodes);
        try {
            workers.send(firstTasks(nodes));
        } catch (UnavailableException e) {
            // committed: failing the launch now would have its caller launch again, and run twice
            LOG.log(
                    Level.WARNING,
                    "the broker did not take the tasks of {0} launched process(es); the outbox relays will send"
                            + " them: {1}",
                    nodes.size(),
                    e.getMessage());
            return nodes;
        }
        Outbox.forget(database, outbox);
        return nodes;
    }

    /**
     * Runs a process to its end in this thread, children included, and returns its
     * outputs. Nothing waits on the broker; the process is stored like any other.
     */
    public ProcessResult run(ProcessDefinition definition, Inputs inputs) {
        List<Launch> launch = List.of(new Launch(definition, inputs));
        ProcessNode root = create(launch).getFirst();
        List<Long> published = commit(launch, List.of(root));
        new InThreadRun(database, graph, executor, access).untilDone(root.id(), published);
        return result(root.id());
    }

    /**
     * Why a launch of {@code definition} with {@code inputs} would or would not take its
     * outputs from the cache: the source it would use, or how its inputs differ from the
     * nearest finished calculation of the same type. Nothing is stored.
     */
    public String explainCache(ProcessDefinition definition, Inputs inputs) {
        ProcessNode node = create(List.of(new Launch(definition, inputs))).getFirst();
        Map<String, String> inputHashes = new LinkedHashMap<>();
        node.pendingIncoming().forEach(link -> inputHashes.put(link.label(), graph.hashOf(link.source())));
        String hash = graph.hashOf(node);
        try (Connection c = database.connection()) {
            return CacheLookup.explain(graph.inTransaction(c), node, hash, definition.spec(), inputHashes);
        } catch (SQLException e) {
            throw new StorageException("explaining the cache for " + definition.entryPoint(), e);
        }
    }

    /**
     * Prepares a calculation job without running it: its input files and submit script are
     * written into {@code folder} (created if missing) for a look before the real launch.
     * Nothing is stored, uploaded or submitted.
     */
    public DryRun dryRun(CalcJobDefinition job, Inputs inputs, Path folder) {
        CalcJobNode node =
                (CalcJobNode) create(List.of(new Launch(job, inputs))).getFirst();
        Map<String, Node> given = new LinkedHashMap<>();
        node.pendingIncoming().forEach(link -> given.put(ProcessSpec.portPath(link.label()), link.source()));
        try {
            Files.createDirectories(folder);
            CalcJobRunner.Prepared prepared = new CalcJobRunner(new Computers(database), graph, access)
                    .prepare(job, node, new ProcessInputs(given), folder);
            return new DryRun(
                    prepared.folder(),
                    prepared.workdir(),
                    prepared.jobName(),
                    prepared.script(),
                    prepared.retrieveList());
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("the dry run of " + job.entryPoint() + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * The outputs a client's function would compute, taken from a finished run of it with the same
     * inputs when caching is on for it; the call is then stored as that run's copy. Empty when the
     * client must run the function, and {@link #recordFunction} it after; nothing is stored then.
     */
    public Optional<ProcessResult> reuseFunction(FunctionCall call) {
        return executor.functionRecords(graph).reuse(call);
    }

    /**
     * Whether {@link #reuseFunction} looks in the cache for {@code call}: as its {@code useCache} says,
     * or else as the caching settings say for its process type.
     */
    public boolean usesCache(FunctionCall call) {
        return executor.functionRecords(graph).usesCache(call);
    }

    /**
     * Stores a run of a client's function as a calcfunction, with its inputs and, when it returned
     * with status 0, its outputs; all in one transaction.
     *
     * @throws dev.cairn.storage.errors.InvalidInputException naming what is wrong: an output that
     *     exists already, outputs with a failure, a name that is not a port name
     */
    public ProcessResult recordFunction(FunctionCall call, FunctionEnding ending) {
        return executor.functionRecords(graph).record(call, ending);
    }

    /**
     * Opens a run of a client's workflow function: stored with its inputs, waiting while the client
     * runs it and calls functions in it (their {@link FunctionCall#caller}), until it is
     * {@link #endFunction ended} or killed.
     */
    public ProcessNode openFunction(FunctionCall call) {
        return executor.functionRecords(graph).open(call);
    }

    /**
     * Ends an open run of a client's workflow function: finished with the stored data it returned, or
     * excepted with what it raised.
     *
     * @throws dev.cairn.storage.errors.NotFoundException when it is not an open run of a client's
     * @throws dev.cairn.storage.errors.ConflictException when it has ended (been killed) already
     * @throws dev.cairn.storage.errors.InvalidInputException when an output is new data
     */
    public ProcessResult endFunction(long processId, FunctionEnding ending) {
        return executor.functionRecords(graph).end(processId, ending);
    }

    /** Keeps a finished calculation from serving as a cache source from now on. */
    public void invalidateCache(ProcessNode node) {
        graph.setExtra(node, CachingExtras.VALID_CACHE, false);
    }

    private List<ProcessNode> create(List<Launch> launches) {
        List<ProcessNode> nodes = new ArrayList<>(launches.size());
        for (Launch l : launches) {
            Map<String, Node> valid = l.definition()
                    .spec()
                    .validateInputs(l.definition().entryPoint(), l.inputs().asMap());
            nodes.add(ProcessNodes.create(l.definition(), valid, l.inputs()));
        }
        return nodes;
    }

    private static List<Task> firstTasks(List<ProcessNode> nodes) {
        return nodes.stream().map(n -> new Task(n.id(), 0)).toList();
    }

    private List<Long> commit(List<Launch> launches, List<ProcessNode> nodes) {
        try {
            return Transactions.run(database, c -> {
                GraphTransaction g = graph.inTransaction(c);
                Long[] parents = linkCallers(c, g, launches, nodes);
                List<Node> batch = new ArrayList<>(nodes);
                // an unstored input two launches share (a shell job's new code) is stored once
                Set<Node> inputs = Collections.newSetFromMap(new IdentityHashMap<>());
                for (ProcessNode n : nodes) {
                    n.pendingIncoming().forEach(link -> {
                        if (!link.source().isStored() && inputs.add(link.source())) {
                            batch.add(link.source());
                        }
                    });
                }
                g.storeAll(batch);
                List<ProcessTable.NewProcess> rows = new ArrayList<>(nodes.size());
                for (int i = 0; i < nodes.size(); i++) {
                    rows.add(new ProcessTable.NewProcess(
                            nodes.get(i).id(),
                            launches.get(i).definition().entryPoint(),
                            parents[i],
                            false,
                            launches.get(i).inputs().cacheOverride()));
                }
                ProcessTable.insert(c, rows);
                return Outbox.add(c, firstTasks(nodes));
            });
        } catch (SQLException e) {
            throw new StorageException("launching " + nodes.size() + " process(es)", e);
        }
    }

    /**
     * Links each launch that names a caller to it, each caller checked once for the batch; the callers'
     * ids, by launch (null: none).
     */
    private Long[] linkCallers(Connection c, GraphTransaction g, List<Launch> launches, List<ProcessNode> nodes)
            throws SQLException {
        Long[] parents = new Long[launches.size()];
        Map<Long, WorkFunctionNode> callers = new HashMap<>();
        for (int i = 0; i < launches.size(); i++) {
            ProcessNode named = launches.get(i).caller();
            if (named == null) {
                continue;
            }
            WorkFunctionNode caller = callers.get(named.id());
            if (caller == null) {
                caller = executor.functionRecords(graph).caller(c, g, named.id());
                callers.put(named.id(), caller);
            }
            ProcessNodes.linkCaller(caller, nodes.get(i), null);
            parents[i] = caller.id();
        }
        return parents;
    }

    private ProcessResult result(long id) {
        try (Connection c = database.connection()) {
            GraphTransaction g = graph.inTransaction(c);
            ProcessNode node = (ProcessNode) g.load(id);
            if (!ProcessState.fromDbValue(node.processState()).isTerminal()) {
                throw new IllegalStateException(node.describe() + " did not finish in this thread (it is "
                        + node.processState() + (node.isPaused() ? ", paused" : "") + ")"
                        + (node.processStatus() != null ? ": " + node.processStatus() : ""));
            }
            Map<String, Data> outputs = new LinkedHashMap<>();
            g.outputsOf(id).forEach((label, n) -> outputs.put(ProcessSpec.portPath(label), (Data) n));
            return new ProcessResult(node, outputs);
        } catch (SQLException e) {
            throw new StorageException("reading the result of process " + id, e);
        }
    }
}
