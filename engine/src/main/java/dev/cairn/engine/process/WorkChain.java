package dev.cairn.engine.process;

import java.util.Map;
import java.util.Objects;

import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.visibility.Internal;

/**
 * The base of a work chain: steps are methods of a subclass, named in its outline, that
 * read inputs, keep what they need in {@link #ctx()}, run functions, submit children and
 * register outputs. The engine makes a fresh instance for every step it runs, so fields of
 * the subclass do not survive between steps: keep state in the context.
 */
public abstract class WorkChain {

    private WorkChainScope scope;

    /** Gives the work chain the step it runs in; called by the engine on each new instance, not by plugins. */
    @Internal
    public final void attach(WorkChainScope stepScope) {
        this.scope = Objects.requireNonNull(stepScope);
    }

    /** This work chain's validated inputs, defaults filled in. */
    protected final ProcessInputs inputs() {
        return scope().inputs();
    }

    /** The value of one input; null when an optional input was not given. */
    protected final <T extends Node> T input(InputPort<T> port) {
        return scope().inputs().get(port);
    }

    /** The context: what a step keeps for the steps after it, saved with the checkpoint. */
    protected final Context ctx() {
        return scope().context();
    }

    /** This work chain's own process node. */
    protected final ProcessNode node() {
        return scope().node();
    }

    /** Runs a calcfunction or workfunction now, within this step. */
    protected final ProcessResult run(ProcessDefinition function, Inputs inputs) {
        return scope().run(function, inputs);
    }

    /**
     * Submits a child, which starts once this step commits; its inputs are validated now. Wait
     * for it with {@link #toContext} or {@link #appendToContext}, or let it run on its own.
     */
    protected final ChildProcess submit(ProcessDefinition definition, Inputs inputs) {
        return scope().submit(definition, inputs, null);
    }

    /** Submits a child as {@link #submit(ProcessDefinition, Inputs)} does, its CALL link labelled {@code callLabel}. */
    protected final ChildProcess submit(ProcessDefinition definition, Inputs inputs, String callLabel) {
        return scope().submit(definition, inputs, callLabel);
    }

    /** Waits for {@code child} before the next step, then keeps its node under {@code key}. */
    protected final void toContext(String key, ChildProcess child) {
        scope().await(child, key, false);
    }

    /** Waits for {@code child} before the next step, then appends its node to the list under {@code key}. */
    protected final void appendToContext(String key, ChildProcess child) {
        scope().await(child, key, true);
    }

    /**
     * Registers an output (a RETURN link). A workflow creates no data: the value is data a
     * calculation created, stored already or created in this step. The spec checks the outputs
     * when the chain ends; a port registered twice is refused.
     */
    protected final <T extends Data> void out(OutputPort<T> port, T value) {
        scope().out(port.path(), value);
    }

    /** Registers an output by path, for dynamic namespaces and exposed ports. */
    protected final void out(String path, Data value) {
        scope().out(path, value);
    }

    /**
     * The outputs of a process that has run, by port path: a child awaited in an earlier step, or one
     * taken from the cache.
     */
    protected final Map<String, Data> outputsOf(ProcessNode process) {
        return scope().outputsOf(process);
    }

    /** Adds a line to this work chain's report (a REPORT record of its log), committed with the step. */
    protected final void report(String message) {
        scope().report(message);
    }

    /** Ends the work chain after this step with {@code code}. */
    protected final void fail(ExitCode code) {
        scope().exit(Objects.requireNonNull(code));
    }

    private WorkChainScope scope() {
        if (scope == null) {
            throw new IllegalStateException("a work chain's methods work only while the engine runs one of its steps");
        }
        return scope;
    }
}
