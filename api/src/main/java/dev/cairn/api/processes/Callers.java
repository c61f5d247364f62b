package dev.cairn.api.processes;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.cairn.engine.launch.ReferenceResolver;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.WorkFunctionNode;

/**
 * The caller a request names by uuid: an open run of a client's workflow function. Only that it is
 * a workflow function's run is checked here; that it is open and the user's the engine checks as it
 * links the call, under the run's lock.
 */
public final class Callers {

    /** What a caller is, said by every refusal of one. */
    private static final String WHAT =
            "a caller is an open run of a workflow function (POST /api/v1/function-runs/workflows)";

    private Callers() {}

    /** The run a launch names as its field 'caller', or null for none; refused naming the field otherwise. */
    static ProcessNode of(ReferenceResolver references, UUID uuid) {
        List<String> problems = new ArrayList<>();
        ProcessNode caller = resolve(references, uuid, "caller", problems);
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems.getFirst());
        }
        return caller;
    }

    /**
     * The run {@code uuid} names, or null with a problem added naming {@code where}; null for a null uuid.
     */
    public static ProcessNode resolve(ReferenceResolver references, UUID uuid, String where, List<String> problems) {
        if (uuid == null) {
            return null;
        }
        Node node = references.node(uuid).orElse(null);
        if (node instanceof WorkFunctionNode run) {
            return run;
        }
        problems.add(where + ": " + (node == null ? "no node has uuid " + uuid : uuid + " is " + node.describe()) + "; "
                + WHAT);
        return null;
    }
}
