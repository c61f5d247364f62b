package dev.cairn.engine.process;

import java.util.Map;
import java.util.Objects;

import dev.cairn.internal.Internal;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.ProcessNode;

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

    protected final ProcessInputs inputs() {
        return scope().inputs();
    }

    protected final <T extends Node> T input(InputPort<T> port) {
        return scope().inputs().get(port);
    }

    protected final Context ctx() {
        return scope().context();
    }

    protected final ProcessNode node() {
        return scope().node();
    }

    /** Runs a calcfunction or workfunction now, within this step. */
    protected final ProcessResult run(ProcessDefinition function, Inputs inputs) {
        return scope().run(function, inputs);
    }

    /** Submits a child, which starts once this step commits. */
    protected final ChildProcess submit(ProcessDefinition definition, Inputs inputs) {
        return scope().submit(definition, inputs, null);
    }

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

    protected final <T extends Data> void out(OutputPort<T> port, T value) {
        scope().out(port.path(), value);
    }

    protected final void out(String path, Data value) {
        scope().out(path, value);
    }

    protected final Map<String, Data> outputsOf(ProcessNode process) {
        return scope().outputsOf(process);
    }

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
