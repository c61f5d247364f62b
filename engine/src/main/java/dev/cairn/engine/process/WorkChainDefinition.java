package dev.cairn.engine.process;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A work chain type: its spec, its outline, and how to make a fresh instance, which the
 * engine fills with the inputs and context of a checkpoint before each step.
 */
public record WorkChainDefinition<W extends WorkChain>(
        String entryPoint, ProcessSpec spec, Outline<W> outline, Supplier<W> factory) implements ProcessDefinition {

    public WorkChainDefinition {
        ProcessDefinition.checkEntryPoint(entryPoint);
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(outline, "outline");
        Objects.requireNonNull(factory, "factory");
    }
}
