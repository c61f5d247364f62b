package dev.cairn.engine.process;

import java.util.Objects;

/**
 * A workflow written as a Java function: it calls other processes through its
 * {@link FunctionScope} and returns data they created (RETURN links), never new data.
 */
public record WorkFunction(String entryPoint, ProcessSpec spec, Body body) implements ProcessDefinition {

    @FunctionalInterface
    public interface Body {
        Outputs apply(ProcessInputs inputs, FunctionScope scope) throws Exception;
    }

    public WorkFunction {
        ProcessDefinition.checkEntryPoint(entryPoint);
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(body, "body");
    }
}
