package dev.cairn.examples;

import java.util.List;

import dev.cairn.engine.plugin.CairnPlugin;
import dev.cairn.engine.process.ProcessDefinition;

/** The example processes, registered through {@code META-INF/services}. */
public final class ExamplesPlugin implements CairnPlugin {

    @Override
    public String name() {
        return "examples";
    }

    @Override
    public List<ProcessDefinition> processes() {
        return List.of(Arithmetic.ADD, Arithmetic.MULTIPLY, Arithmetic.SUM, AddMultiply.DEFINITION,
            SumSeries.DEFINITION);
    }
}
