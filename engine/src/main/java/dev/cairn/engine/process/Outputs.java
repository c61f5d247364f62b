package dev.cairn.engine.process;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import dev.cairn.storage.graph.Data;

/** What a function returns: outputs by port path, and an exit code (0 unless it failed). */
public final class Outputs {

    private final Map<String, Data> values = new LinkedHashMap<>();
    private ExitCode exitCode = ExitCode.OK;

    private Outputs() {}

    /** No outputs yet, and success; add outputs with {@code put}. */
    public static Outputs create() {
        return new Outputs();
    }

    /** One output, and success. */
    public static <T extends Data> Outputs of(OutputPort<T> port, T value) {
        return create().put(port, value);
    }

    /** No outputs, and the process fails with {@code code}. */
    public static Outputs failed(ExitCode code) {
        Outputs o = new Outputs();
        o.exitCode = Objects.requireNonNull(code);
        return o;
    }

    /**
     * Gives {@code port} a value, replacing an earlier one; the engine checks the outputs against
     * the spec when the process ends.
     *
     * @return these outputs, for chaining
     */
    public <T extends Data> Outputs put(OutputPort<T> port, T value) {
        return put(port.path(), value);
    }

    /** An output by path, for dynamic namespaces and exposed ports. */
    public Outputs put(String path, Data value) {
        values.put(Objects.requireNonNull(path), Objects.requireNonNull(value, "value of output " + path));
        return this;
    }

    /** The outputs by port path. */
    public Map<String, Data> asMap() {
        return Collections.unmodifiableMap(values);
    }

    /** The exit code the process ends with: {@link ExitCode#OK} unless these outputs were made by {@link #failed}. */
    public ExitCode exitCode() {
        return exitCode;
    }
}
