package dev.cairn.engine.process;

import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.Node;

/**
 * A calculation written as a Java function: its inputs are linked INPUT_CALC, the new data
 * it returns is linked CREATE. It must not return stored nodes (a calculation creates).
 */
public record CalcFunction(String entryPoint, ProcessSpec spec, Body body) implements ProcessDefinition {

    @FunctionalInterface
    public interface Body {
        Outputs apply(ProcessInputs inputs) throws Exception;
    }

    public CalcFunction {
        ProcessDefinition.checkEntryPoint(entryPoint);
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(body, "body");
    }

    /** A one-input function returning one output. */
    public static <A extends Node, R extends Data> CalcFunction of(
            String entryPoint, InputPort<A> a, OutputPort<R> result, Function<A, R> f) {
        return new CalcFunction(
                entryPoint,
                ProcessSpec.builder().input(a).output(result).build(),
                in -> Outputs.of(result, f.apply(in.get(a))));
    }

    /** A two-input function returning one output. */
    public static <A extends Node, B extends Node, R extends Data> CalcFunction of(
            String entryPoint, InputPort<A> a, InputPort<B> b, OutputPort<R> result, BiFunction<A, B, R> f) {
        return new CalcFunction(
                entryPoint,
                ProcessSpec.builder().input(a).input(b).output(result).build(),
                in -> Outputs.of(result, f.apply(in.get(a), in.get(b))));
    }
}
