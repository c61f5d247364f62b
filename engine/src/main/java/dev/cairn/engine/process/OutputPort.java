package dev.cairn.engine.process;

import java.util.Objects;

import dev.cairn.storage.graph.Data;

/** A typed output: {@code out(port, value)} takes a {@code T} only. */
public record OutputPort<T extends Data>(String path, Class<T> type, boolean required, String help) implements Port {

    public OutputPort {
        Objects.requireNonNull(path, "path");
        for (String part : path.split("\\.", -1)) {
            Port.checkName(part);
        }
        Objects.requireNonNull(type, "type");
        help = help == null ? "" : help;
    }

    public static <T extends Data> OutputPort<T> required(String path, Class<T> type) {
        return new OutputPort<>(path, type, true, "");
    }

    public static <T extends Data> OutputPort<T> optional(String path, Class<T> type) {
        return new OutputPort<>(path, type, false, "");
    }

    public OutputPort<T> withHelp(String text) {
        return new OutputPort<>(path, type, required, text);
    }

    @Override
    public String name() {
        return path.substring(path.lastIndexOf('.') + 1);
    }
}
