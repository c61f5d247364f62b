package dev.cairn.engine.process;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.ProcessNode;

/**
 * A process that ran: its node and its outputs by port path. What {@link WorkChain#run} and
 * {@link FunctionScope#run} return, and what a launcher's {@code run} gives its caller.
 *
 * @param node    the process's node, with its state and exit status
 * @param outputs the outputs linked to the process, by port path
 */
public record ProcessResult(ProcessNode node, Map<String, Data> outputs) {

    /** Copies the outputs, in the order they were given (the order a process linked them). */
    public ProcessResult {
        outputs.forEach((path, data) -> Objects.requireNonNull(data, path));
        outputs = Collections.unmodifiableMap(new LinkedHashMap<>(outputs));
    }

    /** An output by typed port; null when an optional output was not produced. */
    public <T extends Data> T get(OutputPort<T> port) {
        return port.type().cast(outputs.get(port.path()));
    }

    /** Whether the process finished with exit status 0. */
    public boolean isFinishedOk() {
        return "finished".equals(node.processState()) && Integer.valueOf(0).equals(node.exitStatus());
    }
}
