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

    public static Outputs create() {
        return new Outputs();
    }

    public static <T extends Data> Outputs of(OutputPort<T> port, T value) {
        return create().put(port, value);
    }

    /** No outputs, and the process fails with {@code code}. */
    public static Outputs failed(ExitCode code) {
        Outputs o = new Outputs();
        o.exitCode = Objects.requireNonNull(code);
        return o;
    }

    public <T extends Data> Outputs put(OutputPort<T> port, T value) {
        return put(port.path(), value);
    }

    public Outputs put(String path, Data value) {
        values.put(Objects.requireNonNull(path), Objects.requireNonNull(value, "value of output " + path));
        return this;
    }

    public Map<String, Data> asMap() {
        return Collections.unmodifiableMap(values);
    }

    public ExitCode exitCode() {
        return exitCode;
    }
}
