package dev.cairn.engine.process;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A work chain type: its spec, its outline, and how to make a fresh instance, which the
 * engine fills with the inputs and context of a checkpoint before each step.
 *
 * @param entryPoint the process type's name, unique across plugins ("examples.sum_series")
 * @param spec       the inputs and outputs
 * @param outline    the steps; keep its shape while processes of this type are in flight
 * @param factory    makes a fresh instance, usually {@code MyChain::new}
 */
public record WorkChainDefinition<W extends WorkChain>(
        String entryPoint, ProcessSpec spec, Outline<W> outline, Supplier<W> factory) implements ProcessDefinition {

    /** Refuses a malformed entry point ({@link ProcessDefinition#checkEntryPoint}) and missing parts. */
    public WorkChainDefinition {
        ProcessDefinition.checkEntryPoint(entryPoint);
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(outline, "outline");
        Objects.requireNonNull(factory, "factory");
    }
}
