package dev.cairn.api.functions;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import org.springframework.stereotype.Service;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.data.DataForms;
import dev.cairn.api.data.FileGroups;
import dev.cairn.api.nodes.NodeDetails;
import dev.cairn.api.nodes.NodeService;
import dev.cairn.api.processes.ProcessSummary;
import dev.cairn.api.security.CairnPrincipal;
import dev.cairn.engine.Engine;
import dev.cairn.engine.launch.Launcher;
import dev.cairn.engine.launch.ReferenceResolver;
import dev.cairn.engine.process.FunctionCall;
import dev.cairn.engine.process.FunctionEnding;
import dev.cairn.engine.process.InvalidInputsException;
import dev.cairn.engine.process.ProcessResult;
import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.CachingExtras;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.Node;

/**
 * Functions clients run themselves, for every surface of the server: a call is looked up in the cache
 * before the client runs it, and recorded after, as the calcfunction {@code python:<module>.<name>}
 * whose attributes name the function and the hash of its source. Requests are checked whole first,
 * every problem named, so a refusal stores nothing.
 */
@Service
class FunctionRuns {

    /** The process types of functions clients run begin with this: apart from the plugins' entry points. */
    static final String PROCESS_TYPE_PREFIX = "python:";

    private static final Pattern MODULE = Pattern.compile(FunctionIdentity.MODULE);
    private static final Pattern NAME = Pattern.compile(FunctionIdentity.NAME);

    private final Launcher launcher;
    private final ReferenceResolver references;
    private final NodeService nodes;

    FunctionRuns(Engine engine, Storage storage, NodeService nodes) {
        this.launcher = engine.launcher();
        this.references = ReferenceResolver.of(storage.graph(), storage.computers());
        this.nodes = nodes;
    }

    /** The call recorded as the copy of a finished run, when the cache has one; nothing stored otherwise. */
    FunctionReuse reuse(FunctionCallRequest request, CairnPrincipal user) {
        FunctionCall call = decode(request, "", new ArrayList<>(), true);
        return launcher.forUser(user.userId())
                .reuseFunction(call)
                .map(result -> new FunctionReuse(true, view(result, user)))
                .orElse(new FunctionReuse(false, null));
    }

    /**
     * Stores the run with its inputs and, when it returned with status 0, its outputs: values, and the
     * files and folders of {@code files} that outputs of the type file or folder name.
     */
    FunctionRun record(FunctionRunRequest request, FileGroups files, CairnPrincipal user) {
        List<String> problems = new ArrayList<>();
        if (request.call() == null) {
            throw new InvalidInputException("field 'call' is required: the function and its inputs");
        }
        FunctionCall call = decode(request.call(), "call.", problems, false);
        FunctionEnding ending = ending(request, files, problems);
        files.check(problems);
        if (!problems.isEmpty()) {
            throw new InvalidInputsException(call == null ? "the run" : call.processType(), problems);
        }
        return view(launcher.forUser(user.userId()).recordFunction(call, ending), user);
    }

    /** The call as the engine takes it; with {@code alone}, its problems are thrown at once. */
    private FunctionCall decode(FunctionCallRequest request, String at, List<String> problems, boolean alone) {
        int before = problems.size();
        FunctionIdentity function = request.function();
        String processType = null;
        Map<String, Object> attributes = new LinkedHashMap<>();
        if (function == null) {
            problems.add(at + "function is required: its module and name");
        } else {
            check(function.module(), MODULE, at + "function.module", problems);
            check(function.name(), NAME, at + "function.name", problems);
            if (function.source() != null && function.source().length() > FunctionIdentity.MAX_SOURCE) {
                problems.add(at + "function.source is longer than " + FunctionIdentity.MAX_SOURCE + " characters");
            }
            processType = PROCESS_TYPE_PREFIX + function.module() + "." + function.name();
            attributes.put("function_name", function.name());
            attributes.put("function_namespace", function.module());
            if (function.source() != null) {
                attributes.put("source_sha256", sha256(function.source()));
            }
        }
        Map<String, Node> inputs = inputs(request.inputs(), at + "inputs", problems);
        if (alone && problems.size() > before) {
            throw new InvalidInputsException(processType == null ? "the call" : processType, problems);
        }
        if (problems.size() > before) {
            return null;
        }
        return new FunctionCall(
                processType, attributes, function.source(), request.label(), inputs, request.useCache());
    }

    private static void check(String value, Pattern pattern, String field, List<String> problems) {
        if (value == null) {
            problems.add(field + " is required");
        } else if (value.length() > FunctionIdentity.MAX_NAME
                || !pattern.matcher(value).matches()) {
            problems.add(field + " '" + value + "' is not a Python name (" + pattern.pattern() + ", at most "
                    + FunctionIdentity.MAX_NAME + " characters)");
        }
    }

    /** Each input a stored data node by uuid, or a new value. */
    private Map<String, Node> inputs(JsonNode given, String at, List<String> problems) {
        Map<String, Node> inputs = new LinkedHashMap<>();
        if (given == null || given.isNull()) {
            return inputs;
        }
        if (!given.isObject()) {
            problems.add(at + " must be an object of inputs by name");
            return inputs;
        }
        for (Map.Entry<String, JsonNode> entry : given.properties()) {
            String where = at + "." + entry.getKey();
            JsonNode value = entry.getValue();
            if (value.isObject() && value.has("uuid")) {
                Node node = stored(where, value, problems);
                if (node != null) {
                    inputs.put(entry.getKey(), node);
                }
            } else {
                Data data = DataForms.decode(where, value, problems);
                if (data != null) {
                    inputs.put(entry.getKey(), data);
                }
            }
        }
        return inputs;
    }

    private Node stored(String where, JsonNode reference, List<String> problems) {
        JsonNode uuid = reference.get("uuid");
        if (reference.size() != 1 || !uuid.isString()) {
            problems.add(where + ": a stored node is {\"uuid\": \"…\"} alone");
            return null;
        }
        UUID id;
        try {
            id = UUID.fromString(uuid.stringValue());
        } catch (IllegalArgumentException e) {
            problems.add(where + ": '" + uuid.stringValue() + "' is not a uuid");
            return null;
        }
        Node node = references.node(id).orElse(null);
        if (node == null) {
            problems.add(where + ": no node has uuid " + id);
        } else if (!(node instanceof Data)) {
            problems.add(where + ": " + id + " is a process (" + node.getClass().getSimpleName()
                    + "); a function takes data");
            return null;
        }
        return node;
    }

    private static FunctionEnding ending(FunctionRunRequest request, FileGroups files, List<String> problems) {
        if (request.exception() != null) {
            if (request.outputs() != null
                    && !request.outputs().isNull()
                    && !request.outputs().isEmpty()) {
                problems.add("outputs: a run that raised returned nothing; leave them out");
            }
            if (request.exitStatus() != null) {
                problems.add("exit_status: a run that raised has none; leave it out");
            }
            return new FunctionEnding.Raised(request.exception());
        }
        int status = request.exitStatus() == null ? 0 : request.exitStatus();
        if (status < 0) {
            problems.add("exit_status " + status + " is negative");
        }
        Map<String, Data> outputs = new LinkedHashMap<>();
        JsonNode given = request.outputs();
        if (given != null && !given.isNull()) {
            if (!given.isObject()) {
                problems.add("outputs must be an object of outputs by name");
            } else {
                for (Map.Entry<String, JsonNode> entry : given.properties()) {
                    String where = "outputs." + entry.getKey();
                    if (entry.getValue().isObject() && entry.getValue().has("uuid")) {
                        problems.add(where + ": a stored node; a calculation creates its outputs, so give the value");
                        continue;
                    }
                    Data data = FileGroups.names(entry.getValue())
                            ? files.take(where, entry.getKey(), entry.getValue(), problems)
                            : DataForms.decode(where, entry.getValue(), problems);
                    if (data != null) {
                        outputs.put(entry.getKey(), data);
                    }
                }
            }
        }
        return new FunctionEnding.Returned(outputs, status, request.exitMessage());
    }

    private FunctionRun view(ProcessResult result, CairnPrincipal user) {
        Map<String, NodeDetails> outputs = new LinkedHashMap<>();
        result.outputs().forEach((name, data) -> outputs.put(name, nodes.read(data.id())));
        Object source = result.node().extras().get(CachingExtras.CACHED_FROM);
        return new FunctionRun(
                ProcessSummary.launched(result.node(), user.email()),
                outputs,
                source == null ? null : UUID.fromString(source.toString()));
    }

    private static String sha256(String source) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
