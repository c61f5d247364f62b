package dev.cairn.engine.process;

import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.cairn.storage.graph.Node;

/**
 * A typed input: code that reads {@code inputs.get(port)} gets a {@code T} back, so ports
 * are wired by handle and checked by the compiler, not by bare strings. Immutable: the
 * {@code with…} methods return changed copies.
 *
 * @param path      the dotted path from the spec's root ("x", or "parameters.scf" in a namespace)
 * @param validator returns null when the value is fine, else what is wrong with it
 */
public record InputPort<T extends Node>(
        String path,
        Class<T> type,
        boolean required,
        Supplier<? extends T> defaultValue,
        Function<? super T, String> validator,
        String help)
        implements Port {

    public InputPort {
        Objects.requireNonNull(path, "path");
        for (String part : path.split("\\.", -1)) {
            Port.checkName(part);
        }
        Objects.requireNonNull(type, "type");
        help = help == null ? "" : help;
    }

    /** A required input at {@code path}. */
    public static <T extends Node> InputPort<T> required(String path, Class<T> type) {
        return new InputPort<>(path, type, true, null, null, "");
    }

    /** An optional input at {@code path}, absent unless given. */
    public static <T extends Node> InputPort<T> optional(String path, Class<T> type) {
        return new InputPort<>(path, type, false, null, null, "");
    }

    /** This port with a default, made fresh for each launch that omits it. */
    public InputPort<T> withDefault(Supplier<? extends T> value) {
        return new InputPort<>(path, type, required, Objects.requireNonNull(value), validator, help);
    }

    public InputPort<T> withValidator(Function<? super T, String> check) {
        return new InputPort<>(path, type, required, defaultValue, Objects.requireNonNull(check), help);
    }

    public InputPort<T> withHelp(String text) {
        return new InputPort<>(path, type, required, defaultValue, validator, text);
    }

    @Override
    public String name() {
        return path.substring(path.lastIndexOf('.') + 1);
    }

    /** What is wrong with {@code value} for this port, or null. */
    String check(Object value) {
        if (!type.isInstance(value)) {
            return "expected " + type.getSimpleName() + ", got "
                    + (value == null ? "null" : value.getClass().getSimpleName());
        }
        return validator == null ? null : validator.apply(type.cast(value));
    }
}
