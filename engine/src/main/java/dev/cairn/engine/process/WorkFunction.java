package dev.cairn.engine.process;

import java.util.Objects;

/**
 * A workflow written as a Java function: it calls other processes through its
 * {@link FunctionScope} and returns data they created (RETURN links), never new data.
 * Make one with the constructor, or from an annotated method ({@link Function} with
 * {@code workflow = true}).
 *
 * @param entryPoint the process type's name, unique across plugins
 * @param spec       the inputs it takes and the outputs it returns
 * @param body       the function itself
 */
public record WorkFunction(String entryPoint, ProcessSpec spec, Body body) implements ProcessDefinition {

    /** The code of a workfunction. */
    @FunctionalInterface
    public interface Body {
        /**
         * Runs the workflow: calls processes through {@code scope} and returns, by output port
         * path, data they created. An exception fails the process.
         */
        Outputs apply(ProcessInputs inputs, FunctionScope scope) throws Exception;
    }

    /** Refuses a malformed entry point ({@link ProcessDefinition#checkEntryPoint}) and missing parts. */
    public WorkFunction {
        ProcessDefinition.checkEntryPoint(entryPoint);
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(body, "body");
    }
}
