package dev.cairn.examples;

import java.util.ArrayList;
import java.util.List;

import dev.cairn.engine.plugin.CairnPlugin;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.engine.process.ProcessFunctions;

/** The example processes, registered through {@code META-INF/services}. */
public final class ExamplesPlugin implements CairnPlugin {

    @Override
    public String name() {
        return "examples";
    }

    @Override
    public List<ProcessDefinition> processes() {
        List<ProcessDefinition> all = new ArrayList<>(List.of(
                Arithmetic.ADD,
                Arithmetic.MULTIPLY,
                Arithmetic.SUM,
                AddMultiply.DEFINITION,
                SumSeries.DEFINITION,
                ArithmeticAddJob.DEFINITION,
                AddCalcJobWorkChain.DEFINITION));
        all.addAll(ProcessFunctions.of(Arithmetic.class));
        return all;
    }
}
