package dev.cairn.engine.process;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.ProcessNode;

/**
 * A call of a function that a client runs itself (a scientist's Python function), to be recorded
 * as a calcfunction: which function it is, what identifies its code, and the inputs it takes.
 *
 * @param processType names the function, e.g. {@code python:analysis.rescale}; the cache and
 *                    the process filters go by it
 * @param attributes  what identifies the function's code (its name, module, the hash of its source):
 *                    part of the node's hash, so a changed function is not served another's results
 * @param source      the function's source, kept in the node's files as {@code source_file}; null
 *                    when the client has none
 * @param label       the process's label, or null
 * @param inputs      the input nodes by link label, stored or new
 * @param useCache    whether to take a finished run's outputs; null follows the server's policy
 * @param caller      the open workflow function (a client's, run by the same user) that calls this one,
 *                    linked as its caller; null for a call of its own
 */
public record FunctionCall(
        String processType,
        Map<String, Object> attributes,
        String source,
        String label,
        Map<String, Node> inputs,
        Boolean useCache,
        ProcessNode caller) {

    /** The process types of functions clients run begin with this: apart from the plugins' entry points. */
    public static final String CLIENT_TYPES = "python:";

    /** Copies the attributes and the inputs, keeping the inputs' order (their links are made in it). */
    public FunctionCall {
        Objects.requireNonNull(processType, "processType");
        attributes = Map.copyOf(attributes);
        inputs = Collections.unmodifiableMap(new LinkedHashMap<>(inputs));
    }
}
