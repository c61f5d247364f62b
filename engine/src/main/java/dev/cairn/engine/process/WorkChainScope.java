package dev.cairn.engine.process;

import java.util.Map;

import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.ProcessNode;

/**
 * What the engine offers a work chain during a step; implemented by the runtime. A work chain
 * reaches it through the protected methods of {@link WorkChain}; plugins do not implement it.
 */
public interface WorkChainScope extends FunctionScope {

    /** The process node of the process whose step runs. */
    ProcessNode node();

    /** That process's validated inputs. */
    ProcessInputs inputs();

    /** The work chain's context; fails for a process that has none (a function). */
    Context context();

    /** Creates a child process, launched when this step commits; linked CALL from this work chain. */
    ChildProcess submit(ProcessDefinition definition, Inputs inputs, String callLabel);

    /** Waits for the child before the next step, then puts its node under {@code key} (or appends it). */
    void await(ChildProcess child, String key, boolean append);

    /** Registers an output (RETURN link); the data must be stored by then or created in this step. */
    void out(String path, Data value);

    /** A finished process's outputs by port path. */
    Map<String, Data> outputsOf(ProcessNode process);

    /** Ends the work chain after this step with {@code code}. */
    void exit(ExitCode code);
}
