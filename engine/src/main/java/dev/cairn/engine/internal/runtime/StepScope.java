package dev.cairn.engine.internal.runtime;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import dev.cairn.engine.internal.caching.CacheHit;
import dev.cairn.engine.internal.state.ProcessStates;
import dev.cairn.engine.process.ChildProcess;
import dev.cairn.engine.process.Context;
import dev.cairn.engine.process.ExitCode;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.engine.process.ProcessInputs;
import dev.cairn.engine.process.ProcessResult;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.engine.process.WorkChainScope;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.GraphTransaction;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.ProcessNode;

/** A process's view of the engine during one step; everything it does lands in the step's effects. */
final class StepScope implements WorkChainScope {

    private final GraphTransaction graph;
    private final ProcessNode self;
    private final ProcessInputs inputs;
    private final Context context;
    private final StepEffects effects;
    private final Caches caches;
    private final ProcessStates states;
    /** The exit code a step of a work chain asked to end with, or null. */
    private ExitCode requestedExit;

    StepScope(
            GraphTransaction graph,
            ProcessNode self,
            ProcessInputs inputs,
            Context context,
            StepEffects effects,
            Caches caches,
            ProcessStates states) {
        this.caches = caches;
        this.states = states;
        this.graph = graph;
        this.self = self;
        this.inputs = inputs;
        this.context = context;
        this.effects = effects;
    }

    @Override
    public ProcessNode node() {
        return self;
    }

    @Override
    public ProcessInputs inputs() {
        return inputs;
    }

    @Override
    public Context context() {
        if (context == null) {
            throw new IllegalStateException("only a work chain has a context");
        }
        return context;
    }

    @Override
    public ProcessResult run(ProcessDefinition function, Inputs given) {
        return FunctionRunner.runCalled(function, given, self, graph, effects, caches, states);
    }

    @Override
    public ChildProcess submit(ProcessDefinition definition, Inputs given, String callLabel) {
        Map<String, Node> valid = definition.spec().validateInputs(definition.entryPoint(), given.asMap());
        ProcessNode node = ProcessNodes.create(definition, valid, given);
        ProcessNodes.linkCaller(self, node, callLabel);
        effects.addNode(node);
        ChildProcess child = new ChildProcess(node, definition, given.cacheOverride());
        Optional<CacheHit> hit = caches.lookup(graph, definition, node, null, given.cacheOverride());
        if (hit.isPresent()) {
            // taken from the cache, the calculation has ended already: it needs no task, and no one waits for it
            effects.cachedChildren.put(child, caches.take(graph, node, hit.get(), effects));
            states.finishedBeforeStore(node);
            return child;
        }
        effects.children.add(child);
        return child;
    }

    @Override
    public void await(ChildProcess child, String key, boolean append) {
        if (effects.cachedChildren.containsKey(child)) {
            // Ended already, it goes into the context now, unless a child appended to the same key
            // earlier in this step is still running: then it waits its turn, to keep submission order.
            if (append
                    && effects.awaited.stream()
                            .anyMatch(a -> a.append() && a.key().equals(key))) {
                effects.awaited.add(new StepEffects.Awaited(child, key, true));
            } else if (append) {
                context.append(key, child.node());
            } else {
                context.put(key, child.node());
            }
            return;
        }
        if (!effects.children.contains(child)) {
            throw new IllegalStateException("only a child submitted in this step can be awaited; "
                    + child.node().describe() + " was not");
        }
        if (effects.isAwaited(child)) {
            throw new IllegalStateException(child.node().describe() + " is awaited twice");
        }
        effects.awaited.add(new StepEffects.Awaited(child, key, append));
    }

    @Override
    public void out(String path, Data value) {
        if (effects.outputs.putIfAbsent(path, value) != null) {
            throw new InvalidInputException("output '" + path + "' of " + self.describe() + " is registered twice");
        }
    }

    @Override
    public Map<String, Data> outputsOf(ProcessNode process) {
        for (var cached : effects.cachedChildren.entrySet()) {
            if (cached.getKey().node() == process) {
                return Collections.unmodifiableMap(cached.getValue());
            }
        }
        if (!process.isStored()) {
            throw new IllegalStateException(process.describe() + " has not run yet");
        }
        Map<String, Data> outputs = new LinkedHashMap<>();
        graph.outputsOf(process.id()).forEach((label, node) -> outputs.put(ProcessSpec.portPath(label), (Data) node));
        return outputs;
    }

    @Override
    public void report(String message) {
        effects.reports.add(new StepEffects.Report(self, message));
    }

    @Override
    public void exit(ExitCode code) {
        requestedExit = code;
    }

    /** The exit code the step asked to end with (a work chain's {@code fail}), or null. */
    ExitCode requestedExit() {
        return requestedExit;
    }
}
