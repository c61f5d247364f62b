package dev.cairn.engine.process;

import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.Node;

/**
 * A calculation written as a Java function: its inputs are linked INPUT_CALC, the new data
 * it returns is linked CREATE. It must not return stored nodes (a calculation creates).
 * Make one with {@link #of}, from an annotated method ({@link Function}), or with the
 * constructor, and list it among the plugin's processes.
 *
 * @param entryPoint the process type's name, unique across plugins ("arithmetic.add")
 * @param spec       the inputs it takes and the outputs it returns
 * @param body       the function itself
 */
public record CalcFunction(String entryPoint, ProcessSpec spec, Body body) implements ProcessDefinition {

    /** The code of a calcfunction. */
    @FunctionalInterface
    public interface Body {
        /**
         * Computes the outputs from the validated inputs: new, unstored data by output port
         * path, which the engine stores and links. Return {@link Outputs#failed} for a failure
         * the process reports with an exit code; an exception fails the process.
         */
        Outputs apply(ProcessInputs inputs) throws Exception;
    }

    /** Refuses a malformed entry point ({@link ProcessDefinition#checkEntryPoint}) and missing parts. */
    public CalcFunction {
        ProcessDefinition.checkEntryPoint(entryPoint);
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(body, "body");
    }

    /**
     * A one-input function returning one output: the spec is made from the two ports, and
     * {@code f} gets the input's value and returns the output's.
     */
    public static <A extends Node, R extends Data> CalcFunction of(
            String entryPoint, InputPort<A> a, OutputPort<R> result, Function<A, R> f) {
        return new CalcFunction(
                entryPoint,
                ProcessSpec.builder().input(a).output(result).build(),
                in -> Outputs.of(result, f.apply(in.get(a))));
    }

    /** A two-input function returning one output; as the one-input form, with {@code f} taking both inputs. */
    public static <A extends Node, B extends Node, R extends Data> CalcFunction of(
            String entryPoint, InputPort<A> a, InputPort<B> b, OutputPort<R> result, BiFunction<A, B, R> f) {
        return new CalcFunction(
                entryPoint,
                ProcessSpec.builder().input(a).input(b).output(result).build(),
                in -> Outputs.of(result, f.apply(in.get(a), in.get(b))));
    }
}
