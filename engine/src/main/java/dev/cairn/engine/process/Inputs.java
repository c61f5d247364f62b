package dev.cairn.engine.process;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import dev.cairn.storage.graph.Node;

/** The inputs of one launch, by port path; {@link #put(InputPort, Node)} checks the type at compile time. */
public final class Inputs {

    private final Map<String, Node> values = new LinkedHashMap<>();
    private Boolean useCache;
    private JobOptions jobOptions;
    private Long computerId;

    private Inputs() {}

    /** No inputs yet; add them with {@code put}. */
    public static Inputs create() {
        return new Inputs();
    }

    /** One input. */
    public static <A extends Node> Inputs of(InputPort<A> a, A va) {
        return create().put(a, va);
    }

    /** Two inputs. */
    public static <A extends Node, B extends Node> Inputs of(InputPort<A> a, A va, InputPort<B> b, B vb) {
        return create().put(a, va).put(b, vb);
    }

    /** Three inputs; for more, chain {@code put}. */
    public static <A extends Node, B extends Node, C extends Node> Inputs of(
            InputPort<A> a, A va, InputPort<B> b, B vb, InputPort<C> c, C vc) {
        return create().put(a, va).put(b, vb).put(c, vc);
    }

    /**
     * Gives {@code port} a value, replacing an earlier one. Stored nodes are linked as they are;
     * new data is stored with the launch.
     *
     * @return these inputs, for chaining
     */
    public <T extends Node> Inputs put(InputPort<T> port, T value) {
        return put(port.path(), value);
    }

    /** An input by path, for dynamic namespaces and exposed ports. */
    public Inputs put(String path, Node value) {
        values.put(Objects.requireNonNull(path, "path"), Objects.requireNonNull(value, "value of input " + path));
        return this;
    }

    /** All of {@code namespaceValues} under {@code namespace} (e.g. what a parent forwards to a child). */
    public Inputs putAll(String namespace, Map<String, ? extends Node> namespaceValues) {
        namespaceValues.forEach((k, v) -> put(namespace.isEmpty() ? k : namespace + "." + k, v));
        return this;
    }

    /** Turns caching on or off for this launch alone, whatever the engine's policy says. */
    public Inputs useCache(boolean use) {
        this.useCache = use;
        return this;
    }

    /** This launch's caching override; null when the policy decides. */
    public Boolean cacheOverride() {
        return useCache;
    }

    /** How a calculation job runs (resources, limits, queue, ...); only calculation jobs take them. */
    public Inputs jobOptions(JobOptions options) {
        this.jobOptions = Objects.requireNonNull(options, "job options");
        return this;
    }

    /**
     * The computer a calculation job runs on, for a portable code (uploaded with the job); an
     * installed code runs where it is installed.
     */
    public Inputs onComputer(long computer) {
        this.computerId = computer;
        return this;
    }

    /** The computer named by {@link #onComputer}; null when none was. */
    public Long computerId() {
        return computerId;
    }

    /** The options given for a calculation job; null when none were. */
    public JobOptions jobOptions() {
        return jobOptions;
    }

    /** The values by port path, as given (the spec checks them at launch). */
    public Map<String, Node> asMap() {
        return Collections.unmodifiableMap(values);
    }
}
