package dev.cairn.engine.internal.runtime;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import dev.cairn.engine.internal.caching.CacheHit;
import dev.cairn.engine.internal.state.ProcessStates;
import dev.cairn.engine.process.FunctionCall;
import dev.cairn.engine.process.FunctionEnding;
import dev.cairn.engine.process.Port;
import dev.cairn.engine.process.ProcessResult;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.Transactions;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.StorageException;
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
        refuse(call, problems);
        try {
            return Optional.ofNullable(Transactions.run(database, c -> {
                var g = graph.inTransaction(c);
                Optional<CacheHit> hit = caches.lookup(g, call.processType(), SPEC, false, node, null, call.useCache());
                if (hit.isEmpty()) {
                    return null;
                }
                StepEffects effects = new StepEffects();
                effects.addNode(node);
                Map<String, Data> copies = caches.take(g, node, hit.get(), effects);
                states.finishedBeforeStore(node);
                keepSource(node, call);
                g.storeAll(effects.nodes());
                return new ProcessResult(node, copies);
            }));
        } catch (SQLException e) {
            throw new StorageException("looking up " + call.processType() + " in the cache", e);
        }
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
            checkOutputs(r, problems);
        }
        refuse(call, problems);
        StepEffects effects = new StepEffects();
        effects.addNode(node);
        Map<String, Data> linked = new LinkedHashMap<>();
        switch (ending) {
            case FunctionEnding.Returned r -> {
                r.outputs().forEach((name, data) -> {
                    FunctionRunner.link(node, name, data, effects);
                    linked.put(name, data);
                });
                node.setExitStatus(r.exitStatus());
                if (r.exitMessage() != null && !r.exitMessage().isEmpty()) {
                    node.setExitMessage(r.exitMessage());
                }
                states.finishedBeforeStore(node);
            }
            case FunctionEnding.Raised r -> states.exceptedBeforeStore(node, r.exception());
        }
        keepSource(node, call);
        graph.storeAll(effects.nodes());
        return new ProcessResult(node, linked);
    }

    /** The call's unstored node: created, its attributes and source set, its inputs linked. */
    private static CalcFunctionNode node(FunctionCall call, List<String> problems) {
        CalcFunctionNode node = new CalcFunctionNode(call.processType());
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
                node.addIncoming(value, LinkType.INPUT_CALC, name);
            }
        });
        return node;
    }

    /** The source goes into the node's files after its hash is looked up: files are written when it is stored. */
    private static void keepSource(CalcFunctionNode node, FunctionCall call) {
        if (call.source() != null) {
            node.files().put(SOURCE_FILE, call.source().getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void refuse(FunctionCall call, List<String> problems) {
        if (!problems.isEmpty()) {
            throw new InvalidInputException(call.processType() + ": " + String.join("; ", problems));
        }
    }

    private static void checkOutputs(FunctionEnding.Returned r, List<String> problems) {
        if (r.exitStatus() < 0) {
            problems.add("exit status " + r.exitStatus() + " is negative");
        }
        if (r.exitStatus() != 0 && !r.outputs().isEmpty()) {
            problems.add("a run that failed (exit status " + r.exitStatus() + ") links no outputs, got "
                    + String.join(", ", r.outputs().keySet()) + "; leave them out");
        }
        r.outputs().forEach((name, data) -> {
            checkName("output", name, problems);
            if (data.isStored()) {
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
