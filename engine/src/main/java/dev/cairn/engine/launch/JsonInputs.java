package dev.cairn.engine.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import tools.jackson.databind.JsonNode;

import dev.cairn.engine.process.InputPort;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.InvalidInputsException;
import dev.cairn.engine.process.OutputPort;
import dev.cairn.engine.process.Port;
import dev.cairn.engine.process.PortNamespace;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.Node;

/**
 * A launch given in JSON, decoded into {@link Inputs} by the process's spec: what a server
 * takes from a client. The JSON form is the one {@link ProcessSpec#inputSchema()} publishes,
 * and {@link #metadataSchema} for the metadata.
 * <p>
 * <b>Inputs</b> are an object of ports; a namespace is a nested object ({@code "a.b"} is
 * {@code {"a": {"b": …}}}), and a dynamic namespace also takes undeclared keys that are port
 * names, each one value of its dynamic type. A port's value is a node:
 * <ul>
 * <li>a stored node by reference, {@code {"uuid": "…"}} (an object of that one key), which must
 *     be of the port's class. Database ids are not taken: they are internal and differ from
 *     one database to another, while a uuid names the node everywhere;</li>
 * <li>or a new data node of the port's class, stored when the process is launched:
 *     {@code IntData}, {@code FloatData}, {@code StrData}, {@code BoolData} from a bare JSON
 *     integer (64 bits; {@code 2.0} counts, as in JSON Schema), number, string or boolean, or
 *     their attribute form {@code {"value": …}}; {@code DictData} from an object (any object
 *     but a lone {@code uuid}, which is a reference); {@code ListData} from an array;
 *     {@code StructureData} from its attributes {@code cell}, {@code pbc1..3}, {@code kinds},
 *     {@code sites};</li>
 * <li>at a port of the abstract {@code Data} or {@code Node}, an inline value makes the class
 *     its JSON type says: an integer literal an {@code IntData}, any other number a
 *     {@code FloatData}, then {@code StrData}, {@code BoolData}, {@code ListData} and, for an
 *     object, {@code DictData};</li>
 * <li>other classes (codes, {@code RemoteData}, {@code FolderData}, {@code SinglefileData},
 *     {@code ArrayData}, process nodes, other abstract classes) are given by reference only.</li>
 * </ul>
 * JSON {@code null} is never a value: an input left out is absent (or takes its default).
 * <p>
 * <b>Metadata</b> (AiiDA's {@code metadata}) is a separate object: {@code use_cache} (boolean)
 * for any process; for a calculation job also {@code options}, under the names of
 * {@code JobOptions.toAttributes()} ({@code resources} with
 * {@code num_machines}, ..., {@code max_wallclock_seconds}, {@code queue_name}, ...), and
 * {@code computer}, the computer a portable code runs on, by label ({@code "cluster"}) or by
 * uuid ({@code {"uuid": "…"}}).
 * <p>
 * <b>Errors</b>: every problem of the document is collected, each naming its port path (or
 * metadata key), and thrown together as one {@link InvalidInputsException}: an unknown key
 * (with the valid ones), a JSON type the port does not take, a malformed uuid or one that names
 * no node, a node of the wrong class, a value the data class refuses, a null. What the spec
 * checks at launch (required inputs, defaults, validators, job options against the scheduler,
 * a portable code without a computer) it still checks then, with the same exception and the
 * same phrasing, before anything is stored.
 */
public final class JsonInputs {

    private final PortValues values;
    private final LaunchMetadata metadata;

    /** @param references where the uuids and computer labels a document names are looked up */
    public JsonInputs(ReferenceResolver references) {
        this.values = new PortValues(references);
        this.metadata = new LaunchMetadata(references);
    }

    /**
     * The inputs of a launch of {@code definition}, without metadata.
     *
     * @param inputs a JSON object of ports; null (Java) for none
     * @throws InvalidInputsException naming the entry point and every problem, by port
     */
    public Inputs decode(ProcessDefinition definition, JsonNode inputs) {
        return decode(definition, inputs, null);
    }

    /**
     * The inputs and metadata of a launch of {@code definition}.
     *
     * @param inputs   a JSON object of ports; null (Java) for none
     * @param metadata a JSON object of {@code use_cache}, {@code options}, {@code computer}; null (Java) for none
     * @throws InvalidInputsException naming the entry point and every problem of both documents
     */
    public Inputs decode(ProcessDefinition definition, JsonNode inputs, JsonNode metadata) {
        Objects.requireNonNull(definition, "definition");
        List<String> problems = new ArrayList<>();
        Inputs decoded = Inputs.create();
        if (inputs != null && !inputs.isMissingNode()) {
            if (inputs.isObject()) {
                namespace(definition.spec().inputs(), inputs, decoded, problems);
            } else {
                problems.add("the inputs must be an object of ports, got " + JsonValues.describe(inputs));
            }
        }
        if (metadata != null && !metadata.isMissingNode()) {
            this.metadata.decode(definition, metadata, decoded, problems);
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputsException(definition.entryPoint(), problems);
        }
        return decoded;
    }

    /**
     * The metadata a launch of {@code definition} takes, as JSON Schema (draft 2020-12):
     * {@code use_cache}, and for a calculation job {@code options} and {@code computer}.
     */
    public static Map<String, Object> metadataSchema(ProcessDefinition definition) {
        return LaunchMetadata.schema(Objects.requireNonNull(definition, "definition"));
    }

    private void namespace(PortNamespace ns, JsonNode object, Inputs into, List<String> problems) {
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            String key = e.getKey();
            String path = ns.path().isEmpty() ? key : ns.path() + "." + key;
            JsonNode value = e.getValue();
            switch (ns.ports().get(key)) {
                case null -> {
                    if (ns.dynamic()) {
                        dynamic(ns, key, path, value, into, problems);
                    } else {
                        problems.add(unknown(ns, path));
                    }
                }
                case PortNamespace inner -> {
                    if (value.isObject()) {
                        namespace(inner, value, into, problems);
                    } else if (value.isNull()) {
                        problems.add("namespace '" + path + "' is null; leave it out to omit it");
                    } else {
                        problems.add("namespace '" + path + "' takes an object of its inputs, got "
                                + JsonValues.describe(value));
                    }
                }
                case InputPort<?> in -> put(into, path, values.decode(path, in.type(), value, problems));
                case OutputPort<?> out ->
                    throw new IllegalStateException("output port " + out.path() + " among inputs");
            }
        }
    }

    /** An undeclared key of a dynamic namespace: a port name, and one value of the namespace's type. */
    private void dynamic(
            PortNamespace ns, String key, String path, JsonNode value, Inputs into, List<String> problems) {
        try {
            Port.checkName(key);
        } catch (InvalidInputException e) {
            problems.add("input '" + path + "': " + e.getMessage());
            return;
        }
        put(into, path, values.decode(path, ns.dynamicType(), value, problems));
    }

    private static void put(Inputs into, String path, Node node) {
        if (node != null) {
            into.put(path, node);
        }
    }

    private static String unknown(PortNamespace ns, String path) {
        List<String> names = List.copyOf(ns.ports().keySet());
        if (ns.path().isEmpty()) {
            return "'" + path + "' is not an input; "
                    + (names.isEmpty() ? "this process takes no inputs" : "valid inputs are " + names);
        }
        return "'" + path + "' is not an input; namespace '" + ns.path() + "' takes "
                + (names.isEmpty() ? "none" : names.toString());
    }
}
