package dev.cairn.engine.process;

import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.cairn.storage.graph.Node;

/**
 * A typed input: code that reads {@code inputs.get(port)} gets a {@code T} back, so ports
 * are wired by handle and checked by the compiler, not by bare strings. Immutable: the
 * {@code with…} methods return changed copies. Start from {@link #required} or {@link #optional}.
 *
 * @param path         the dotted path from the spec's root ("x", or "parameters.scf" in a namespace)
 * @param type         the node class a value must be an instance of
 * @param required     a launch without a value (and without a default) is refused
 * @param defaultValue makes the value for a launch that gives none; null: no default
 * @param validator    returns null when the value is fine, else what is wrong with it
 * @param help         what the input is for, shown with the process's inputs
 */
public record InputPort<T extends Node>(
        String path,
        Class<T> type,
        boolean required,
        Supplier<? extends T> defaultValue,
        Function<? super T, String> validator,
        String help)
        implements Port {

    /** Refuses a path whose parts are not port names ({@link Port#checkName}); a null help becomes empty. */
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

    /** This port with a check of each value, run at launch: null when the value is fine, else what is wrong. */
    public InputPort<T> withValidator(Function<? super T, String> check) {
        return new InputPort<>(path, type, required, defaultValue, Objects.requireNonNull(check), help);
    }

    /** This port with a help text, shown with the process's inputs and in its input schema. */
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
