package dev.cairn.examples;

import dev.cairn.engine.process.InputPort;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.Outline;
import dev.cairn.engine.process.OutputPort;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.engine.process.WorkChain;
import dev.cairn.engine.process.WorkChainDefinition;
import dev.cairn.storage.graph.IntData;

/**
 * (x + y) * z in one step: two calcfunctions run inside the work chain's step (three
 * processes in all). The engine benchmark's work chain.
 */
public final class AddMultiply extends WorkChain {

    public static final InputPort<IntData> X = InputPort.required("x", IntData.class);
    public static final InputPort<IntData> Y = InputPort.required("y", IntData.class);
    public static final InputPort<IntData> Z = InputPort.required("z", IntData.class);
    public static final OutputPort<IntData> RESULT = OutputPort.required("result", IntData.class);

    public static final WorkChainDefinition<AddMultiply> DEFINITION = new WorkChainDefinition<>(
            "arithmetic.add_multiply",
            ProcessSpec.builder().input(X).input(Y).input(Z).output(RESULT).build(),
            Outline.of(Outline.step(AddMultiply::compute)),
            AddMultiply::new);

    void compute() {
        IntData sum = run(Arithmetic.ADD, Inputs.of(Arithmetic.X, input(X), Arithmetic.Y, input(Y)))
                .get(Arithmetic.RESULT);
        IntData product = run(Arithmetic.MULTIPLY, Inputs.of(Arithmetic.X, sum, Arithmetic.Y, input(Z)))
                .get(Arithmetic.RESULT);
        out(RESULT, product);
    }
}
