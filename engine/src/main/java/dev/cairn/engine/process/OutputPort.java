package dev.cairn.engine.process;

import java.util.Objects;

import dev.cairn.storage.graph.Data;

/**
 * A typed output: {@code out(port, value)} takes a {@code T} only. Start from {@link #required}
 * or {@link #optional}.
 *
 * @param path     the dotted path from the spec's root ("result", or "relax.structure" in a namespace)
 * @param type     the data class a value must be an instance of
 * @param required a process that ends successfully without it fails with {@link EngineExitCodes#ERROR_MISSING_OUTPUT}
 * @param help     what the output is, shown with the process's outputs
 */
public record OutputPort<T extends Data>(String path, Class<T> type, boolean required, String help) implements Port {

    /** Refuses a path whose parts are not port names ({@link Port#checkName}); a null help becomes empty. */
    public OutputPort {
        Objects.requireNonNull(path, "path");
        for (String part : path.split("\\.", -1)) {
            Port.checkName(part);
        }
        Objects.requireNonNull(type, "type");
        help = help == null ? "" : help;
    }

    /** An output the process must give when it succeeds. */
    public static <T extends Data> OutputPort<T> required(String path, Class<T> type) {
        return new OutputPort<>(path, type, true, "");
    }

    /** An output the process may leave out. */
    public static <T extends Data> OutputPort<T> optional(String path, Class<T> type) {
        return new OutputPort<>(path, type, false, "");
    }

    /** This port with a help text, shown with the process's outputs and in its output schema. */
    public OutputPort<T> withHelp(String text) {
        return new OutputPort<>(path, type, required, text);
    }

    @Override
    public String name() {
        return path.substring(path.lastIndexOf('.') + 1);
    }
}
