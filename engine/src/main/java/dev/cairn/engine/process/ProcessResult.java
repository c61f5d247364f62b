package dev.cairn.engine.process;

import java.util.Map;

import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.ProcessNode;

/** A process that ran: its node and its outputs by port path. */
public record ProcessResult(ProcessNode node, Map<String, Data> outputs) {

    public ProcessResult {
        outputs = Map.copyOf(outputs);
    }

    /** An output by typed port; null when an optional output was not produced. */
    public <T extends Data> T get(OutputPort<T> port) {
        return port.type().cast(outputs.get(port.path()));
    }

    public boolean isFinishedOk() {
        return "finished".equals(node.processState()) && Integer.valueOf(0).equals(node.exitStatus());
    }
}
