package dev.cairn.examples;

import dev.cairn.engine.process.CalcFunction;
import dev.cairn.engine.process.Function;
import dev.cairn.engine.process.In;
import dev.cairn.engine.process.InputPort;
import dev.cairn.engine.process.OutputPort;
import dev.cairn.engine.process.Outputs;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.storage.graph.IntData;

/** Calcfunctions on integers. */
public final class Arithmetic {

    public static final InputPort<IntData> X = InputPort.required("x", IntData.class);
    public static final InputPort<IntData> Y = InputPort.required("y", IntData.class);
    public static final OutputPort<IntData> RESULT = OutputPort.required("result", IntData.class);

    /** x + y */
    public static final CalcFunction ADD = CalcFunction.of(
            "arithmetic.add_function", X, Y, RESULT, (x, y) -> new IntData(Math.addExact(x.value(), y.value())));

    /** x * y */
    public static final CalcFunction MULTIPLY = CalcFunction.of(
            "arithmetic.multiply", X, Y, RESULT, (x, y) -> new IntData(Math.multiplyExact(x.value(), y.value())));

    /** The sum of any number of integers given in the dynamic namespace {@code values}. */
    public static final CalcFunction SUM = new CalcFunction(
            "arithmetic.sum",
            ProcessSpec.builder()
                    .inputNamespace("values", ns -> ns.asDynamic(IntData.class))
                    .output(RESULT)
                    .build(),
            in -> Outputs.of(
                    RESULT,
                    new IntData(in.namespace("values").values().stream()
                            .mapToLong(v -> ((IntData) v).value())
                            .reduce(0, Math::addExact))));

    /** x - y, written as an annotated method (see {@link dev.cairn.engine.process.ProcessFunctions}). */
    @Function("arithmetic.subtract")
    static IntData subtract(@In("x") IntData x, @In("y") IntData y) {
        return new IntData(Math.subtractExact(x.value(), y.value()));
    }

    private Arithmetic() {}
}
