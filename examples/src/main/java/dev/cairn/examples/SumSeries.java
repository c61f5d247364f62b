package dev.cairn.examples;

import static dev.cairn.engine.process.Outline.loop;
import static dev.cairn.engine.process.Outline.returnWith;
import static dev.cairn.engine.process.Outline.step;
import static dev.cairn.engine.process.Outline.when;

import java.util.List;

import dev.cairn.engine.process.ExitCode;
import dev.cairn.engine.process.InputPort;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.Outline;
import dev.cairn.engine.process.OutputPort;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.engine.process.WorkChain;
import dev.cairn.engine.process.WorkChainDefinition;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.WorkChainNode;

/**
 * Sums (i + 1) * 2 for i below {@code n}, in rounds of up to {@code batch} child
 * {@link AddMultiply} work chains that it submits and waits for, then adds their results
 * with {@link Arithmetic#SUM}. Shows a loop, if/else, waiting on children with append,
 * reports, a validator, a default and an exit code.
 */
public final class SumSeries extends WorkChain {

    public static final InputPort<IntData> N = InputPort.required("n", IntData.class)
            .withValidator(n -> n.value() < 0 ? "must not be negative, got " + n.value() : null)
            .withHelp("how many terms");
    public static final InputPort<IntData> BATCH = InputPort.optional("batch", IntData.class)
            .withDefault(() -> new IntData(10))
            .withHelp("children per round");
    public static final OutputPort<IntData> TOTAL = OutputPort.required("total", IntData.class);
    public static final ExitCode TOO_MANY = new ExitCode(400, "ERROR_TOO_MANY_TERMS", "n is above 1000", false);

    public static final WorkChainDefinition<SumSeries> DEFINITION = new WorkChainDefinition<>(
            "examples.sum_series",
            ProcessSpec.builder()
                    .input(N)
                    .input(BATCH)
                    .output(TOTAL)
                    .exitCode(TOO_MANY)
                    .build(),
            Outline.of(
                    when(SumSeries::tooMany, returnWith(TOO_MANY)),
                    step(SumSeries::setup),
                    loop(SumSeries::moreTerms, step(SumSeries::submitRound)),
                    when(SumSeries::empty, step(SumSeries::zero)).otherwise(step(SumSeries::total))),
            SumSeries::new);

    boolean tooMany() {
        return input(N).value() > 1000;
    }

    void setup() {
        ctx().put("next", 0);
    }

    boolean moreTerms() {
        return ctx().getLong("next") < input(N).value();
    }

    void submitRound() {
        long from = ctx().getLong("next");
        long to = Math.min(input(N).value(), from + input(BATCH).value());
        for (long i = from; i < to; i++) {
            appendToContext(
                    "terms",
                    submit(
                            AddMultiply.DEFINITION,
                            Inputs.of(
                                    AddMultiply.X,
                                    new IntData(i),
                                    AddMultiply.Y,
                                    new IntData(1),
                                    AddMultiply.Z,
                                    new IntData(2))));
        }
        ctx().put("next", to);
        report("submitted terms " + from + " to " + (to - 1));
    }

    boolean empty() {
        return input(N).value() == 0;
    }

    void zero() {
        out(TOTAL, run(Arithmetic.SUM, Inputs.create()).get(Arithmetic.RESULT));
    }

    void total() {
        List<WorkChainNode> terms = ctx().nodes("terms", WorkChainNode.class);
        Inputs values = Inputs.create();
        for (int i = 0; i < terms.size(); i++) {
            values.put("values.term_" + i, outputsOf(terms.get(i)).get(AddMultiply.RESULT.path()));
        }
        out(TOTAL, run(Arithmetic.SUM, values).get(Arithmetic.RESULT));
    }
}
