package dev.cairn.examples;

import static dev.cairn.engine.process.Outline.step;

import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.ExitCode;
import dev.cairn.engine.process.InputPort;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.Outline;
import dev.cairn.engine.process.OutputPort;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.engine.process.WorkChain;
import dev.cairn.engine.process.WorkChainDefinition;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.Code;
import dev.cairn.storage.graph.IntData;

/**
 * x + y + y: the calculation job {@link ArithmeticAddJob} adds x and y with the given code
 * (bash), then the calcfunction {@link Arithmetic#ADD} adds y to the job's sum. Three
 * processes in all, the job being waited for between the two steps. The engine benchmark
 * of the AiiDA 1.0 paper (its {@code AddWorkChain}), used by the {@code calcjobs} workload
 * of {@code jmh/compare-engine.sh}.
 */
public final class AddCalcJobWorkChain extends WorkChain {

    public static final InputPort<Code> CODE = CalcJobDefinition.CODE;
    public static final InputPort<IntData> X = Arithmetic.X;
    public static final InputPort<IntData> Y = Arithmetic.Y;
    public static final OutputPort<IntData> RESULT = OutputPort.required("result", IntData.class);
    public static final ExitCode JOB_FAILED =
            new ExitCode(400, "ERROR_CALC_FAILED", "the arithmetic.add job did not finish ok", false);

    public static final WorkChainDefinition<AddCalcJobWorkChain> DEFINITION = new WorkChainDefinition<>(
            "arithmetic.add_calcjob_workchain",
            ProcessSpec.builder()
                    .input(CODE)
                    .input(X)
                    .input(Y)
                    .output(RESULT)
                    .exitCode(JOB_FAILED)
                    .build(),
            Outline.of(step(AddCalcJobWorkChain::submitJob), step(AddCalcJobWorkChain::addY)),
            AddCalcJobWorkChain::new);

    void submitJob() {
        toContext(
                "job",
                submit(
                        ArithmeticAddJob.DEFINITION,
                        Inputs.of(
                                CalcJobDefinition.CODE, input(CODE), Arithmetic.X, input(X), Arithmetic.Y, input(Y))));
    }

    void addY() {
        CalcJobNode job = ctx().node("job", CalcJobNode.class);
        if (!"finished".equals(job.processState()) || job.exitStatus() == null || job.exitStatus() != 0) {
            report("job " + job.id() + " ended " + job.processState() + " with exit status " + job.exitStatus());
            fail(JOB_FAILED);
            return;
        }
        IntData sum = (IntData) outputsOf(job).get(Arithmetic.RESULT.path());
        out(
                RESULT,
                run(Arithmetic.ADD, Inputs.of(Arithmetic.X, sum, Arithmetic.Y, input(Y)))
                        .get(Arithmetic.RESULT));
    }
}
