package dev.cairn.engine.process;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.Node;

/**
 * What a process takes and gives: input and output ports in (nested) namespaces, and its
 * exit codes. Built once per process type with {@link #builder()}; immutable.
 * <p>
 * Paths use '.' between namespaces ("parameters.scf"); link labels use "__" instead, as
 * '.' is not allowed there ("parameters__scf").
 */
public final class ProcessSpec {

    private final PortNamespace inputs;
    private final PortNamespace outputs;
    private final Map<Integer, ExitCode> exitCodes;
    private final Function<Map<String, Node>, String> validator;

    private ProcessSpec(Builder b) {
        this.inputs = b.inputs;
        this.outputs = b.outputs;
        this.exitCodes = Collections.unmodifiableMap(new TreeMap<>(b.exitCodes));
        this.validator = b.validator;
    }

    /** A new builder, with the engine's exit codes ({@link EngineExitCodes}) declared already. */
    public static Builder builder() {
        return new Builder();
    }

    /** The inputs, as the root namespace of their ports. */
    public PortNamespace inputs() {
        return inputs;
    }

    /** The outputs, as the root namespace of their ports. */
    public PortNamespace outputs() {
        return outputs;
    }

    /** The exit codes by status, the engine's and the process's own, in order of status. */
    public Map<Integer, ExitCode> exitCodes() {
        return exitCodes;
    }

    /** The exit code with this label; a {@code NotFoundException} lists the labels there are. */
    public ExitCode exitCode(String label) {
        return exitCodes.values().stream()
                .filter(c -> c.label().equals(label))
                .findFirst()
                .orElseThrow(() -> new NotFoundException("no exit code labelled " + label + "; this spec has "
                        + exitCodes.values().stream().map(ExitCode::label).toList()));
    }

    /** A port path as a link label. */
    public static String linkLabel(String path) {
        return path.replace(".", "__");
    }

    /** A link label as a port path. */
    public static String portPath(String linkLabel) {
        return linkLabel.replace("__", ".");
    }

    /**
     * Checks a launch's inputs (by port path) and fills in defaults. Every problem is
     * reported at once, each naming its port.
     *
     * @throws InvalidInputsException naming {@code process} and every problem found
     */
    public Map<String, Node> validateInputs(String process, Map<String, ? extends Node> given) {
        Map<String, Node> accepted = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        Map<String, Node> remaining = new LinkedHashMap<>(given);
        checkNamespace(inputs, remaining, accepted, problems);
        for (String path : remaining.keySet()) {
            problems.add("'" + path + "' is not an input; " + describeValid(inputs, path));
        }
        if (problems.isEmpty() && validator != null) {
            String wrong = validator.apply(Collections.unmodifiableMap(accepted));
            if (wrong != null) {
                problems.add(wrong);
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputsException(process, problems);
        }
        return accepted;
    }

    private static void checkNamespace(
            PortNamespace ns, Map<String, Node> remaining, Map<String, Node> accepted, List<String> problems) {
        int before = accepted.size();
        for (Port port : ns.ports().values()) {
            switch (port) {
                case InputPort<?> in -> {
                    Node value = remaining.remove(in.path());
                    if (value == null && in.defaultValue() != null) {
                        value = in.defaultValue().get();
                    }
                    if (value == null) {
                        if (in.required()) {
                            problems.add("required input '" + in.path() + "' ("
                                    + in.type().getSimpleName() + ") is missing");
                        }
                        continue;
                    }
                    String wrong = in.check(value);
                    if (wrong != null) {
                        problems.add("input '" + in.path() + "': " + wrong);
                    } else {
                        accepted.put(in.path(), value);
                    }
                }
                case PortNamespace inner -> checkNamespace(inner, remaining, accepted, problems);
                case OutputPort<?> out ->
                    throw new IllegalStateException("output port " + out.path() + " among inputs");
            }
        }
        if (ns.dynamic()) {
            String prefix = ns.path().isEmpty() ? "" : ns.path() + ".";
            for (var it = remaining.entrySet().iterator(); it.hasNext(); ) {
                var e = it.next();
                String rest = e.getKey()
                        .substring(Math.min(prefix.length(), e.getKey().length()));
                if (!e.getKey().startsWith(prefix) || rest.isEmpty()) {
                    continue;
                }
                if (!ns.dynamicType().isInstance(e.getValue())) {
                    problems.add("input '" + e.getKey() + "' in dynamic namespace '" + ns.path() + "': expected "
                            + ns.dynamicType().getSimpleName() + ", got "
                            + e.getValue().getClass().getSimpleName());
                } else {
                    accepted.put(e.getKey(), e.getValue());
                }
                it.remove();
            }
        }
        if (!ns.path().isEmpty()) {
            Map<String, Node> mine = new LinkedHashMap<>();
            accepted.forEach((k, v) -> {
                if (k.startsWith(ns.path() + ".")) {
                    mine.put(k.substring(ns.path().length() + 1), v);
                }
            });
            if (ns.required() && accepted.size() == before) {
                problems.add("namespace '" + ns.path() + "' is required but empty");
            } else if (ns.validator() != null && !mine.isEmpty()) {
                String wrong = ns.validator().apply(Collections.unmodifiableMap(mine));
                if (wrong != null) {
                    problems.add("namespace '" + ns.path() + "': " + wrong);
                }
            }
        }
    }

    private static String describeValid(PortNamespace root, String path) {
        List<String> valid = new ArrayList<>();
        collectPaths(root, valid);
        return valid.isEmpty() ? "this process takes no inputs" : "valid inputs are " + valid;
    }

    private static void collectPaths(PortNamespace ns, List<String> into) {
        for (Port p : ns.ports().values()) {
            switch (p) {
                case InputPort<?> in -> into.add(in.path());
                case OutputPort<?> out -> into.add(out.path());
                case PortNamespace inner -> {
                    if (inner.dynamic()) {
                        into.add(inner.path() + ".*");
                    }
                    collectPaths(inner, into);
                }
            }
        }
        if (ns.dynamic() && ns.path().isEmpty()) {
            into.add("* (dynamic)");
        }
    }

    /**
     * Checks the outputs a process registered: null when they fit, else exit code 10 or 11
     * with a message naming the port.
     */
    public ExitCode checkOutputs(Map<String, ? extends Data> registered) {
        Map<String, Data> remaining = new LinkedHashMap<>(registered);
        ExitCode wrong = checkOutputNamespace(outputs, remaining, true);
        if (wrong != null) {
            return wrong;
        }
        if (!remaining.isEmpty()) {
            return EngineExitCodes.ERROR_INVALID_OUTPUT.format(
                    "message", "'" + remaining.keySet().iterator().next() + "' is not an output port");
        }
        return null;
    }

    /**
     * Whether {@code value} fits the output port at {@code path}: a declared port of its class, or a
     * name in a dynamic namespace of its class. Unlike {@link #checkOutputs}, required outputs that
     * are missing do not matter: a failed calculation job keeps the outputs it has that fit.
     */
    public boolean takesOutput(String path, Data value) {
        Map<String, Data> one = new LinkedHashMap<>(Map.of(path, value));
        return checkOutputNamespace(outputs, one, false) == null && one.isEmpty();
    }

    private static ExitCode checkOutputNamespace(PortNamespace ns, Map<String, Data> remaining, boolean requireAll) {
        for (Port port : ns.ports().values()) {
            switch (port) {
                case OutputPort<?> out -> {
                    Data value = remaining.remove(out.path());
                    if (value == null && out.required() && requireAll) {
                        return EngineExitCodes.ERROR_MISSING_OUTPUT.format("message", "'" + out.path() + "'");
                    }
                    if (value != null && !out.type().isInstance(value)) {
                        return EngineExitCodes.ERROR_INVALID_OUTPUT.format(
                                "message",
                                "'" + out.path() + "' expects " + out.type().getSimpleName() + ", got "
                                        + value.getClass().getSimpleName());
                    }
                }
                case PortNamespace inner -> {
                    ExitCode wrong = checkOutputNamespace(inner, remaining, requireAll);
                    if (wrong != null) {
                        return wrong;
                    }
                }
                case InputPort<?> in -> throw new IllegalStateException("input port " + in.path() + " among outputs");
            }
        }
        if (ns.dynamic()) {
            String prefix = ns.path().isEmpty() ? "" : ns.path() + ".";
            remaining
                    .entrySet()
                    .removeIf(e ->
                            e.getKey().startsWith(prefix) && ns.dynamicType().isInstance(e.getValue()));
        }
        return null;
    }

    /**
     * The inputs as JSON Schema (draft 2020-12), for publishing and validating requests: exactly
     * the JSON form that {@code dev.cairn.engine.launch.JsonInputs} decodes, each port's value a
     * node given by reference ({@code {"uuid": "…"}}) or, for the data classes that have one, in
     * an inline form (see {@code JsonInputs}).
     */
    public Map<String, Object> inputSchema() {
        return JsonSchemas.inputs(inputs);
    }

    /** The outputs as JSON Schema: each port's node class. */
    public Map<String, Object> outputSchema() {
        return JsonSchemas.outputs(outputs);
    }

    /** Builds a spec; ports with dotted paths create their namespaces on the way. */
    public static final class Builder {

        private PortNamespace inputs = PortNamespace.root();
        private PortNamespace outputs = PortNamespace.root();
        private final Map<Integer, ExitCode> exitCodes = new LinkedHashMap<>();
        private Function<Map<String, Node>, String> validator;

        private Builder() {
            for (ExitCode c : List.of(
                    EngineExitCodes.ERROR_UNSPECIFIED,
                    EngineExitCodes.ERROR_INVALID_OUTPUT,
                    EngineExitCodes.ERROR_MISSING_OUTPUT)) {
                exitCodes.put(c.status(), c);
            }
        }

        /**
         * Declares an input; a dotted path creates its namespaces on the way. A name declared
         * twice in one namespace is refused.
         *
         * @return this builder, for chaining
         */
        public Builder input(InputPort<?> port) {
            inputs = add(inputs, port.path(), port);
            return this;
        }

        /** Declares an output, as {@link #input} declares an input. */
        public Builder output(OutputPort<?> port) {
            outputs = add(outputs, port.path(), port);
            return this;
        }

        /** Declares (or changes) an input namespace, e.g. to make it dynamic or give it a validator. */
        public Builder inputNamespace(String path, UnaryOperator<PortNamespace> shape) {
            inputs = shapeNamespace(inputs, path, shape);
            return this;
        }

        /** Declares (or changes) an output namespace, e.g. to make it dynamic. */
        public Builder outputNamespace(String path, UnaryOperator<PortNamespace> shape) {
            outputs = shapeNamespace(outputs, path, shape);
            return this;
        }

        /** Lets the top level take inputs that are not declared, of {@code type}. */
        public Builder dynamicInputs(Class<? extends Node> type) {
            inputs = inputs.asDynamic(type);
            return this;
        }

        /** Lets the top level take outputs that are not declared, of {@code type}. */
        public Builder dynamicOutputs(Class<? extends Data> type) {
            outputs = outputs.asDynamic(type);
            return this;
        }

        /**
         * Declares an exit code the process may end with. Status 0 needs no declaration and is
         * refused, as is a status declared twice (the engine's included).
         */
        public Builder exitCode(ExitCode code) {
            if (code.status() == 0) {
                throw new InvalidInputException("exit status 0 means success and needs no declaration");
            }
            ExitCode old = exitCodes.putIfAbsent(code.status(), code);
            if (old != null) {
                throw new InvalidInputException(
                        "exit status " + code.status() + " is declared twice: " + old.label() + " and " + code.label());
            }
            return this;
        }

        /** A check of all inputs together, run after each port's own. */
        public Builder validator(Function<Map<String, Node>, String> check) {
            this.validator = Objects.requireNonNull(check);
            return this;
        }

        /**
         * Copies another process's inputs into {@code namespace} (all of them, or only
         * {@code include} when not empty, minus {@code exclude}), so a parent can take
         * what it forwards to that child.
         */
        public Builder exposeInputs(ProcessSpec child, String namespace, Set<String> include, Set<String> exclude) {
            for (InputPort<?> in : leaves(child.inputs, InputPort.class)) {
                if (!include.isEmpty() && !include.contains(in.path()) || exclude.contains(in.path())) {
                    continue;
                }
                input(new InputPort<>(
                        namespace + "." + in.path(),
                        in.type(),
                        in.required(),
                        castDefault(in),
                        castValidator(in),
                        in.help()));
            }
            inputs = shapeNamespace(inputs, namespace, ns -> ns);
            return this;
        }

        /** Copies another process's outputs into {@code namespace}. */
        public Builder exposeOutputs(ProcessSpec child, String namespace) {
            for (OutputPort<?> out : leaves(child.outputs, OutputPort.class)) {
                output(new OutputPort<>(namespace + "." + out.path(), out.type(), out.required(), out.help()));
            }
            return this;
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        private static Supplier castDefault(InputPort<?> in) {
            return (Supplier) in.defaultValue();
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        private static Function castValidator(InputPort<?> in) {
            return (Function) in.validator();
        }

        /** The spec as declared so far; the builder may go on to build others. */
        public ProcessSpec build() {
            return new ProcessSpec(this);
        }

        private static PortNamespace add(PortNamespace root, String path, Port port) {
            int dot = path.indexOf('.');
            if (dot < 0) {
                return root.with(port);
            }
            String head = path.substring(0, dot);
            Port existing = root.ports().get(head);
            PortNamespace inner;
            if (existing == null) {
                inner = new PortNamespace(root.qualified(head), Map.of(), false, null, false, null, "");
            } else if (existing instanceof PortNamespace ns) {
                inner = ns;
            } else {
                throw new InvalidInputException("'" + root.qualified(head) + "' is a port, not a namespace");
            }
            return root.replacing(add(inner, path.substring(dot + 1), port));
        }

        private static PortNamespace shapeNamespace(
                PortNamespace root, String path, UnaryOperator<PortNamespace> shape) {
            int dot = path.indexOf('.');
            String head = dot < 0 ? path : path.substring(0, dot);
            Port.checkName(head);
            Port existing = root.ports().get(head);
            PortNamespace inner;
            if (existing == null) {
                inner = new PortNamespace(root.qualified(head), Map.of(), false, null, false, null, "");
            } else if (existing instanceof PortNamespace ns) {
                inner = ns;
            } else {
                throw new InvalidInputException("'" + root.qualified(head) + "' is a port, not a namespace");
            }
            inner = dot < 0 ? shape.apply(inner) : shapeNamespace(inner, path.substring(dot + 1), shape);
            return root.replacing(inner);
        }

        private static <P extends Port> List<P> leaves(PortNamespace ns, Class<P> kind) {
            List<P> found = new ArrayList<>();
            for (Port p : ns.ports().values()) {
                if (p instanceof PortNamespace inner) {
                    found.addAll(leaves(inner, kind));
                } else if (kind.isInstance(p)) {
                    found.add(kind.cast(p));
                }
            }
            return found;
        }
    }
}
