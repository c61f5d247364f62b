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
import dev.cairn.api.processes.Callers;
import dev.cairn.api.processes.ProcessService;
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
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.CachingExtras;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.ProcessNode;

/**
 * Functions clients run themselves, for every surface of the server: a call is looked up in the cache
 * before the client runs it, and recorded after, as the calcfunction {@code python:<module>.<name>}
 * whose attributes name the function and the hash of its source. Requests are checked whole first,
 * every problem named, so a refusal stores nothing.
 */
@Service
class FunctionRuns {

    private static final Pattern MODULE = Pattern.compile(FunctionIdentity.MODULE);
    private static final Pattern NAME = Pattern.compile(FunctionIdentity.NAME);

    private final Launcher launcher;
    private final ReferenceResolver references;
    private final NodeService nodes;
    private final ProcessService processes;

    FunctionRuns(Engine engine, Storage storage, NodeService nodes, ProcessService processes) {
        this.launcher = engine.launcher();
        this.references = ReferenceResolver.of(storage.graph(), storage.computers());
        this.nodes = nodes;
        this.processes = processes;
    }

    /** The call recorded as the copy of a finished run, when the cache has one; nothing stored otherwise. */
    FunctionReuse reuse(FunctionCallRequest request, CairnPrincipal user) {
        FunctionCall call = decode(request, "", new ArrayList<>(), true);
        Launcher forUser = launcher.forUser(user.userId());
        return forUser.reuseFunction(call)
                .map(result -> new FunctionReuse(
                        true, view(result, ProcessSummary.launched(result.node(), user.email(), call.caller())), true))
                .orElseGet(() -> new FunctionReuse(false, null, forUser.usesCache(call)));
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
        FunctionEnding ending = ending(request, created(files), problems);
        files.check(problems);
        refuse(call, problems);
        ProcessResult result = launcher.forUser(user.userId()).recordFunction(call, ending);
        return view(result, ProcessSummary.launched(result.node(), user.email(), call.caller()));
    }

    /** Opens a run of a client's workflow function: calls that name it as their caller are linked to it. */
    ProcessSummary open(FunctionCallRequest request, CairnPrincipal user) {
        List<String> problems = new ArrayList<>();
        if (request.useCache() != null) {
            problems.add("use_cache: a workflow function is not taken from the cache (the calculation functions it"
                    + " calls are); leave it out");
        }
        FunctionCall call = decode(request, "", problems, false);
        refuse(call, problems);
        return ProcessSummary.launched(launcher.forUser(user.userId()).openFunction(call), user.email(), call.caller());
    }

    /** Ends an open run of a client's workflow function: with the stored data it returned, or what it raised. */
    FunctionRun end(UUID run, WorkflowEnding request, CairnPrincipal user) {
        Node node = references.node(run).orElseThrow(() -> new NotFoundException("no node has uuid " + run));
        List<String> problems = new ArrayList<>();
        FunctionEnding ending = ending(request, returned(), problems);
        if (!problems.isEmpty()) {
            throw new InvalidInputsException(node.describe(), problems);
        }
        ProcessResult result = launcher.forUser(user.userId()).endFunction(node.id(), ending);
        return view(result, processes.summary(node.id()));
    }

    /** Throws the problems of a request, named by its call when it has one that reads. */
    private static void refuse(FunctionCall call, List<String> problems) {
        if (!problems.isEmpty()) {
            throw new InvalidInputsException(call == null ? "the run" : call.processType(), problems);
        }
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
            processType = FunctionCall.CLIENT_TYPES + function.module() + "." + function.name();
            attributes.put("function_name", function.name());
            attributes.put("function_namespace", function.module());
            if (function.source() != null) {
                attributes.put("source_sha256", sha256(function.source()));
            }
        }
        Map<String, Node> inputs = inputs(request.inputs(), at + "inputs", problems);
        ProcessNode caller = Callers.resolve(references, request.caller(), at + "caller", problems);
        if (alone && problems.size() > before) {
            throw new InvalidInputsException(processType == null ? "the call" : processType, problems);
        }
        if (problems.size() > before) {
            return null;
        }
        return new FunctionCall(
                processType, attributes, function.source(), request.label(), inputs, request.useCache(), caller);
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

    /** One output of a run: the data its form in the request gives, or null with its problem said. */
    private interface OutputForm {
        Data decode(String where, String name, JsonNode form, List<String> problems);
    }

    /** A calculation's output: a new value, or the files of a file, folder or array. */
    private static OutputForm created(FileGroups files) {
        return (where, name, form, problems) -> {
            if (form.isObject() && form.has("uuid")) {
                problems.add(where + ": a stored node; a calculation creates its outputs, so give the value");
                return null;
            }
            return FileGroups.names(form)
                    ? files.take(where, name, form, problems)
                    : DataForms.decode(where, form, problems);
        };
    }

    /** A workflow's output: stored data it returns. */
    private OutputForm returned() {
        return (where, name, form, problems) -> {
            if (!form.isObject() || !form.has("uuid")) {
                problems.add(where + ": a workflow returns stored data, {\"uuid\": \"…\"} (what its calls made, or"
                        + " an input); a new value is made by a calculation function it calls");
                return null;
            }
            Node node = stored(where, form, problems);
            return node instanceof Data data ? data : null;
        };
    }

    private static FunctionEnding ending(RunEnding request, OutputForm form, List<String> problems) {
        JsonNode given = request.outputs();
        Integer exitStatus = request.exitStatus();
        if (request.exception() != null) {
            if (given != null && !given.isNull() && !given.isEmpty()) {
                problems.add("outputs: a run that raised returned nothing; leave them out");
            }
            if (exitStatus != null) {
                problems.add("exit_status: a run that raised has none; leave it out");
            }
            return new FunctionEnding.Raised(request.exception());
        }
        int status = exitStatus == null ? 0 : exitStatus;
        if (status < 0) {
            problems.add("exit_status " + status + " is negative");
        }
        Map<String, Data> outputs = new LinkedHashMap<>();
        if (given != null && !given.isNull()) {
            if (!given.isObject()) {
                problems.add("outputs must be an object of outputs by name");
            } else {
                for (Map.Entry<String, JsonNode> entry : given.properties()) {
                    Data data = form.decode("outputs." + entry.getKey(), entry.getKey(), entry.getValue(), problems);
                    if (data != null) {
                        outputs.put(entry.getKey(), data);
                    }
                }
            }
        }
        return new FunctionEnding.Returned(outputs, status, request.exitMessage());
    }

    /** The run as the answer shows it, its process as {@code process}. */
    private FunctionRun view(ProcessResult result, ProcessSummary process) {
        Map<String, NodeDetails> outputs = new LinkedHashMap<>();
        result.outputs().forEach((name, data) -> outputs.put(name, nodes.read(data.id())));
        Object source = result.node().extras().get(CachingExtras.CACHED_FROM);
        return new FunctionRun(process, outputs, source == null ? null : UUID.fromString(source.toString()));
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
