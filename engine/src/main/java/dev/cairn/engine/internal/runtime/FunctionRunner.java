package dev.cairn.engine.internal.runtime;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.cairn.engine.internal.state.ProcessStates;
import dev.cairn.engine.process.CalcFunction;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.ExitCode;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.Outputs;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.engine.process.ProcessInputs;
import dev.cairn.engine.process.ProcessResult;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.engine.process.WorkChainDefinition;
import dev.cairn.engine.process.WorkFunction;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.CalculationNode;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.GraphTransaction;
import dev.cairn.storage.graph.LinkRuleException;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.WorkflowNode;

/** Runs calcfunctions and workfunctions, and links what a process returns by the link rules. */
final class FunctionRunner {

    private FunctionRunner() {}

    /** Runs a function called from {@code caller} within the caller's step; its nodes join the step's effects. */
    static ProcessResult runCalled(
            ProcessDefinition definition,
            Inputs given,
            ProcessNode caller,
            GraphTransaction graph,
            StepEffects effects,
            Caches caches,
            ProcessStates states) {
        if (definition instanceof WorkChainDefinition<?> || definition instanceof CalcJobDefinition) {
            throw new InvalidInputException("'" + definition.entryPoint() + "' is not a function: submit it and wait"
                    + " for it (toContext); only functions run within a step");
        }
        Map<String, Node> inputs = definition.spec().validateInputs(definition.entryPoint(), given.asMap());
        ProcessNode node = ProcessNodes.create(definition, inputs, given);
        ProcessNodes.linkCaller(caller, node, null);
        effects.addNode(node);
        var hit = caches.lookup(graph, definition, node, null, given.cacheOverride());
        if (hit.isPresent()) {
            Map<String, Data> copies = caches.take(graph, node, hit.get(), effects);
            states.finishedBeforeStore(node);
            return new ProcessResult(node, copies);
        }
        Outputs outputs;
        try {
            outputs = invoke(definition, node, inputs, graph, effects, caches, states);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new ProcessFailedException(
                    definition.entryPoint() + " (called by " + caller.describe() + ") failed", e);
        }
        Map<String, Data> linked = attach(node, definition, outputs, effects);
        states.finishedBeforeStore(node);
        return new ProcessResult(node, linked);
    }

    /** Runs the body of a function; {@code node} is the function's own node. */
    static Outputs invoke(
            ProcessDefinition definition,
            ProcessNode node,
            Map<String, Node> inputs,
            GraphTransaction graph,
            StepEffects effects,
            Caches caches,
            ProcessStates states)
            throws Exception {
        ProcessInputs in = new ProcessInputs(inputs);
        return switch (definition) {
            case CalcFunction f -> f.body().apply(in);
            case WorkFunction f -> f.body().apply(in, new StepScope(graph, node, in, null, effects, caches, states));
            case WorkChainDefinition<?> w -> throw new IllegalStateException(w.entryPoint() + " is not a function");
            case CalcJobDefinition j -> throw new IllegalStateException(j.entryPoint() + " is not a function");
        };
    }

    /**
     * Links a function's outputs to its node and records its exit status: a calculation
     * CREATEs new data; a workflow RETURNs data a calculation created. Outputs that do not
     * fit the spec end the process with exit code 10 or 11 and are not linked. A failed process's
     * outputs are not linked, except a calculation job's that fit a port.
     */
    static Map<String, Data> attach(
            ProcessNode node, ProcessDefinition definition, Outputs outputs, StepEffects effects) {
        ExitCode code = outputs.exitCode();
        Map<String, Data> linked = new LinkedHashMap<>();
        if (code.isOk()) {
            ExitCode wrong = definition.spec().checkOutputs(outputs.asMap());
            if (wrong != null) {
                code = wrong;
            } else {
                outputs.asMap().forEach((path, data) -> {
                    link(node, path, data, effects);
                    linked.put(path, data);
                });
            }
        } else if (definition instanceof CalcJobDefinition) {
            // as in AiiDA, a failed job keeps what it brought back and parsed (retrieved, a command's
            // standard error): what the user reads to see why it failed
            outputs.asMap().forEach((path, data) -> {
                if (definition.spec().takesOutput(path, data)) {
                    link(node, path, data, effects);
                    linked.put(path, data);
                }
            });
        }
        node.setExitStatus(code.status());
        if (!code.message().isEmpty()) {
            node.setExitMessage(code.message());
        }
        return linked;
    }

    /** Links one output of {@code node} under the port {@code path}. */
    static void link(ProcessNode node, String path, Data data, StepEffects effects) {
        String label = ProcessSpec.linkLabel(path);
        if (node instanceof CalculationNode) {
            if (data.isStored() || hasCreator(data)) {
                throw new LinkRuleException(node.describe() + " returned " + data.describe() + " as '" + path
                        + "', which exists already; a calculation returns new data only (it creates its outputs)");
            }
            data.addIncoming(node, LinkType.CREATE, label);
            effects.addNode(data);
        } else if (node instanceof WorkflowNode workflow) {
            if (data.isStored()) {
                effects.returnLinks.add(new StepEffects.ReturnLink(workflow, label, data));
            } else if (hasCreator(data)) {
                data.addIncoming(workflow, LinkType.RETURN, label);
            } else {
                throw new LinkRuleException(node.describe() + " returned new data as '" + path + "' (" + data.describe()
                        + "); a workflow returns data that a calculation created, it creates none itself: compute it in a"
                        + " calcfunction");
            }
        }
    }

    private static boolean hasCreator(Data data) {
        return data.pendingIncoming().stream().anyMatch(l -> l.type() == LinkType.CREATE);
    }
}
