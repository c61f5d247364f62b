package dev.cairn.engine.internal.runtime;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import dev.cairn.engine.internal.caching.CacheHit;
import dev.cairn.engine.internal.state.Checkpoint;
import dev.cairn.engine.internal.state.ProcessRow;
import dev.cairn.engine.internal.state.ProcessStates;
import dev.cairn.engine.internal.state.ProcessTable;
import dev.cairn.engine.process.FunctionCall;
import dev.cairn.engine.process.FunctionEnding;
import dev.cairn.engine.process.Port;
import dev.cairn.engine.process.ProcessResult;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.Transactions;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.GraphTransaction;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.StorageException;
import dev.cairn.storage.graph.WorkFunctionNode;
import dev.cairn.storage.visibility.Internal;

/**
 * Functions a client runs itself, recorded as calcfunctions: before the client runs one, a finished
 * run with the same hash gives its outputs (a copy, as for any calculation taken from the cache);
 * after it ran, its node, inputs and outputs are stored in one transaction, as a function the engine
 * ran would be. The engine takes the client's word for what the function returned, as AiiDA takes a
 * Python process's: the record says who ran it (the user) and what code (its source).
 */
@Internal
public final class FunctionRecords {

    /** The file a recorded function's source is kept in, as AiiDA keeps a calcfunction's. */
    public static final String SOURCE_FILE = "source_file";

    /** What an open workflow function's status line says while the client runs it. */
    static final String OPEN_STATUS = "Running in the client that opened it";

    /** Any data in, any data out: what a function takes is what the client says it took. */
    private static final ProcessSpec SPEC = ProcessSpec.builder()
            .dynamicInputs(Data.class)
            .dynamicOutputs(Data.class)
            .build();

    private final Database database;
    private final GraphStore graph;
    private final Caches caches;
    private final ProcessStates states;

    FunctionRecords(Database database, GraphStore graph, Caches caches, ProcessStates states) {
        this.database = Objects.requireNonNull(database);
        this.graph = Objects.requireNonNull(graph);
        this.caches = Objects.requireNonNull(caches);
        this.states = Objects.requireNonNull(states);
    }

    /**
     * The outputs of a finished run of the same function with the same inputs, when caching is on
     * for it: the call is stored as a copy of that run (its outputs copied, the extra naming the
     * source). Empty when there is none; nothing is stored then.
     */
    public Optional<ProcessResult> reuse(FunctionCall call) {
        List<String> problems = new ArrayList<>();
        CalcFunctionNode node = node(call, problems);
        refuse(call.processType(), problems);
        if (!usesCache(call)) {
            return Optional.empty();
        }
        return Optional.ofNullable(inTransaction("looking up " + call.processType() + " in the cache", (c, g) -> {
            Optional<CacheHit> hit = caches.lookup(g, call.processType(), SPEC, false, node, null, call.useCache());
            if (hit.isEmpty()) {
                return null;
            }
            linkCaller(c, g, call, node);
            StepEffects effects = new StepEffects();
            effects.addNode(node);
            Map<String, Data> copies = caches.take(g, node, hit.get(), effects);
            states.finishedBeforeStore(node);
            keepSource(node, call);
            g.storeAll(effects.nodes());
            return new ProcessResult(node, copies);
        }));
    }

    /**
     * Whether {@link #reuse} looks in the cache for the call: as its {@code use_cache} says, or else as
     * the caching settings say for its process type. When not, no call of the function is reused.
     */
    public boolean usesCache(FunctionCall call) {
        return caches.isEnabled(call.processType(), call.useCache());
    }

    /**
     * Stores a run that ended as {@code ending}: the node with its inputs and, when it returned
     * with status 0, its new outputs linked CREATE.
     *
     * @throws InvalidInputException when an output is a stored node (a calculation creates its
     *     outputs), when outputs come with a non-zero exit status, or a name is not a port name
     */
    public ProcessResult record(FunctionCall call, FunctionEnding ending) {
        List<String> problems = new ArrayList<>();
        CalcFunctionNode node = node(call, problems);
        if (ending instanceof FunctionEnding.Returned r) {
            checkOutputs(r, false, problems);
        }
        refuse(call.processType(), problems);
        StepEffects effects = new StepEffects();
        effects.addNode(node);
        Map<String, Data> linked = new LinkedHashMap<>();
        switch (ending) {
            case FunctionEnding.Returned r -> {
                r.outputs().forEach((name, data) -> {
                    FunctionRunner.link(node, name, data, effects);
                    linked.put(name, data);
                });
                setExit(node, r);
                states.finishedBeforeStore(node);
            }
            case FunctionEnding.Raised r -> states.exceptedBeforeStore(node, r.exception());
        }
        keepSource(node, call);
        inTransaction("recording " + call.processType(), (c, g) -> {
            linkCaller(c, g, call, node);
            g.storeAll(effects.nodes());
            return null;
        });
        return new ProcessResult(node, linked);
    }

    /**
     * Opens a run of a workflow function the client runs itself: its node is stored with its inputs
     * (and its caller, when the call names one), waiting for the client, which calls functions in it
     * ({@link FunctionCall#caller}) and then {@link #end}s it. A kill ends it as any process.
     */
    public ProcessNode open(FunctionCall call) {
        List<String> problems = new ArrayList<>();
        WorkFunctionNode node = new WorkFunctionNode(call.processType());
        describe(node, call, LinkType.INPUT_WORK, problems);
        refuse(call.processType(), problems);
        keepSource(node, call);
        return inTransaction("opening " + call.processType(), (c, g) -> {
            ProcessNode caller = linkCaller(c, g, call, node);
            StepEffects effects = new StepEffects();
            effects.addNode(node);
            g.storeAll(effects.nodes());
            ProcessTable.insert(
                    c,
                    List.of(new ProcessTable.NewProcess(
                            node.id(), call.processType(), caller == null ? null : caller.id(), false, false)));
            ProcessRow row = ProcessTable.lock(c, node.id()).orElseThrow();
            states.waiting(c, g, row, node, OPEN_STATUS, 0, Checkpoint.NONE);
            return node;
        });
    }

    /**
     * Ends the open run {@code processId} as {@code ending}: with the stored data it returned
     * (RETURN links) and its exit status, or excepted with what it raised.
     *
     * @throws NotFoundException    when it is not an open run of a client's workflow function
     * @throws ConflictException    when it has ended already (killed, most likely)
     * @throws InvalidInputException when an output is new data (a workflow returns what its calls
     *                               made), when outputs come with a non-zero exit status, or a
     *                               name is not a port name
     */
    public ProcessResult end(long processId, FunctionEnding ending) {
        return inTransaction("ending process " + processId, (c, g) -> {
            OpenRun open = openRun(c, g, processId);
            WorkFunctionNode node = open.node();
            ProcessRow row = open.row();
            Map<String, Data> returned = new LinkedHashMap<>();
            ProcessState terminal;
            switch (ending) {
                case FunctionEnding.Returned r -> {
                    List<String> problems = new ArrayList<>();
                    checkOutputs(r, true, problems);
                    refuse(node.describe(), problems);
                    returned.putAll(r.outputs());
                    setExit(node, r);
                    terminal = ProcessState.FINISHED;
                }
                case FunctionEnding.Raised r -> {
                    node.setException(r.exception());
                    terminal = ProcessState.EXCEPTED;
                }
            }
            g.addReturnLinks(node, returned);
            states.end(c, g, row, node, terminal);
            return new ProcessResult(node, returned);
        });
    }

    /** An open run of a client's workflow function, and its row, locked. */
    private record OpenRun(WorkFunctionNode node, ProcessRow row) {}

    /** The open run of a client's workflow function {@code id}, under its row's lock; refused otherwise. */
    private OpenRun openRun(Connection c, GraphTransaction g, long id) throws SQLException {
        Optional<ProcessRow> row = ProcessTable.lock(c, id);
        Node node = g.load(id);
        if (!(node instanceof WorkFunctionNode run)
                || run.processType() == null
                || !run.processType().startsWith(FunctionCall.CLIENT_TYPES)
                || row.isEmpty()) {
            throw new NotFoundException(node.describe() + " is not a run a client opened");
        }
        if (node.userId() != graph.userId()) {
            throw new InvalidInputException(
                    node.describe() + " was opened by another user; only they may call in it" + " or end it");
        }
        if (row.get().state().isTerminal()) {
            throw new ConflictException(node.describe() + " has ended already: it is "
                    + row.get().state().dbValue()
                    + (row.get().state() == ProcessState.KILLED ? " (killed; see its report)" : ""));
        }
        return new OpenRun(run, row.get());
    }

    /** Links {@code node} as called by the call's caller, when it names one; returns the caller. */
    private ProcessNode linkCaller(Connection c, GraphTransaction g, FunctionCall call, ProcessNode node)
            throws SQLException {
        if (call.caller() == null) {
            return null;
        }
        WorkFunctionNode caller = caller(c, g, call.caller().id());
        ProcessNodes.linkCaller(caller, node, null);
        return caller;
    }

    /**
     * The open run {@code id} of a client's workflow function that a call or a launch names as its caller,
     * checked to be open and the user's under its row's lock (so a kill of it is seen), for the transaction
     * that links them. A process launched in it names it as its parent too, so that a kill of the run
     * reaches it.
     *
     * @throws NotFoundException     when it is not an open run of a client's workflow function
     * @throws ConflictException     when it has ended (been killed) already
     * @throws InvalidInputException when another user opened it
     */
    public WorkFunctionNode caller(Connection c, GraphTransaction g, long id) throws SQLException {
        return openRun(c, g, id).node();
    }

    /** Work on the graph in one transaction. */
    private interface GraphWork<T> {
        T apply(Connection c, GraphTransaction g) throws SQLException;
    }

    private <T> T inTransaction(String what, GraphWork<T> work) {
        try {
            return Transactions.run(database, c -> work.apply(c, graph.inTransaction(c)));
        } catch (SQLException e) {
            throw new StorageException(what, e);
        }
    }

    /** The call's unstored node: created, its attributes and source set, its inputs linked. */
    private static CalcFunctionNode node(FunctionCall call, List<String> problems) {
        CalcFunctionNode node = new CalcFunctionNode(call.processType());
        describe(node, call, LinkType.INPUT_CALC, problems);
        return node;
    }

    /** Marks {@code node} created with the call's label, attributes and inputs (linked as {@code inputs}). */
    private static void describe(ProcessNode node, FunctionCall call, LinkType inputs, List<String> problems) {
        node.setProcessLabel(call.processType().substring(call.processType().lastIndexOf('.') + 1));
        call.attributes().forEach(node::setStaticAttribute);
        if (call.label() != null) {
            node.setLabel(call.label());
        }
        ProcessStates.created(node);
        call.inputs().forEach((name, value) -> {
            checkName("input", name, problems);
            if (!(value instanceof Data)) {
                problems.add("input '" + name + "' is " + value.describe() + "; a function takes data");
            } else if (problems.isEmpty()) {
                node.addIncoming(value, inputs, name);
            }
        });
    }

    /** The source goes into the node's files after its hash is looked up: files are written when it is stored. */
    private static void keepSource(ProcessNode node, FunctionCall call) {
        if (call.source() != null) {
            node.files().put(SOURCE_FILE, call.source().getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void refuse(String who, List<String> problems) {
        if (!problems.isEmpty()) {
            throw new InvalidInputException(who + ": " + String.join("; ", problems));
        }
    }

    private static void setExit(ProcessNode node, FunctionEnding.Returned r) {
        node.setExitStatus(r.exitStatus());
        if (r.exitMessage() != null && !r.exitMessage().isEmpty()) {
            node.setExitMessage(r.exitMessage());
        }
    }

    /**
     * The problems of what a run returned: a calculation's outputs are new data, a workflow's
     * ({@code stored}) data that exists; a failure returns none.
     */
    private static void checkOutputs(FunctionEnding.Returned r, boolean stored, List<String> problems) {
        if (r.exitStatus() < 0) {
            problems.add("exit status " + r.exitStatus() + " is negative");
        }
        if (r.exitStatus() != 0 && !r.outputs().isEmpty()) {
            problems.add("a run that failed (exit status " + r.exitStatus() + ") links no outputs, got "
                    + String.join(", ", r.outputs().keySet()) + "; leave them out");
        }
        r.outputs().forEach((name, data) -> {
            checkName("output", name, problems);
            if (stored && !data.isStored()) {
                problems.add("output '" + name + "' is new data (" + data.describe() + "); a workflow returns data"
                        + " that its calls made or that it was given: compute it in a calculation function");
            } else if (!stored && data.isStored()) {
                problems.add("output '" + name + "' is " + data.describe()
                        + ", which exists already; a calculation returns new data only");
            }
        });
    }

    /** A port name, as {@link Port#checkName} has it; the problem said in this record's words. */
    private static void checkName(String what, String name, List<String> problems) {
        try {
            Port.checkName(name);
        } catch (InvalidInputException e) {
            problems.add(what + " '" + name + "': a name is letters, digits and single underscores, starting with a"
                    + " letter and not ending with '_'");
        }
    }
}
