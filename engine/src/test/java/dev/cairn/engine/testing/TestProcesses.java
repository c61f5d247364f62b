package dev.cairn.engine.testing;

import static dev.cairn.engine.process.Outline.step;
import static dev.cairn.engine.process.Outline.when;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import dev.cairn.engine.plugin.CairnPlugin;
import dev.cairn.engine.process.CalcFunction;
import dev.cairn.engine.process.CalcInfo;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.ExitCode;
import dev.cairn.engine.process.InputPort;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.JobOptions;
import dev.cairn.engine.process.Outline;
import dev.cairn.engine.process.OutputPort;
import dev.cairn.engine.process.Outputs;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.engine.process.ProcessFunctions;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.engine.process.WorkChain;
import dev.cairn.engine.process.WorkChainDefinition;
import dev.cairn.engine.process.WorkFunction;
import dev.cairn.storage.graph.BoolData;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.Code;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.SinglefileData;
import dev.cairn.storage.graph.StrData;
import dev.cairn.storage.graph.WorkChainNode;

/** The processes the engine's tests run, in worker JVMs too (registered as a plugin). */
public final class TestProcesses implements CairnPlugin {

    public static final InputPort<IntData> X = InputPort.required("x", IntData.class);
    public static final InputPort<IntData> Y = InputPort.required("y", IntData.class);
    public static final OutputPort<IntData> RESULT = OutputPort.required("result", IntData.class);

    public static final CalcFunction ADD =
            CalcFunction.of("test.add", X, Y, RESULT, (x, y) -> new IntData(x.value() + y.value()));

    /** Sleeps x milliseconds, then returns x. */
    public static final CalcFunction SLOW = CalcFunction.of("test.slow", X, RESULT, x -> {
        try {
            Thread.sleep(x.value());
        } catch (InterruptedException e) {
            throw new IllegalStateException("interrupted", e);
        }
        return new IntData(x.value());
    });

    public static final CalcFunction FAIL = CalcFunction.of("test.fail", X, RESULT, x -> {
        throw new IllegalArgumentException("test.fail always fails (x = " + x.value() + ")");
    });

    public static final OutputPort<SinglefileData> FILE = OutputPort.required("file", SinglefileData.class);

    /** Writes a file whose content names x: its step stores an object. */
    public static final CalcFunction WRITE_FILE = CalcFunction.of(
            "test.write_file",
            X,
            FILE,
            x -> new SinglefileData("x.txt", ("file " + x.value()).getBytes(StandardCharsets.UTF_8)));

    public static final ExitCode NEGATIVE = new ExitCode(300, "ERROR_NEGATIVE", "x + y is negative: {sum}", true);

    /** Workfunction: add(x, y) then add(sum, y), returning the last sum; exit 300 when negative. */
    public static final WorkFunction ADD_TWICE = new WorkFunction(
            "test.add_twice",
            ProcessSpec.builder()
                    .input(X)
                    .input(Y)
                    .output(RESULT)
                    .exitCode(NEGATIVE)
                    .build(),
            (in, scope) -> {
                IntData sum =
                        scope.run(ADD, Inputs.of(X, in.get(X), Y, in.get(Y))).get(RESULT);
                if (sum.value() < 0) {
                    return Outputs.failed(NEGATIVE.format("sum", sum.value()));
                }
                scope.report("first sum " + sum.value());
                return Outputs.of(
                        RESULT, scope.run(ADD, Inputs.of(X, sum, Y, in.get(Y))).get(RESULT));
            });

    /** x + y, failing with the cache-invalidating exit code 300 when the sum is negative. */
    public static final CalcFunction ADD_NON_NEGATIVE = new CalcFunction(
            "test.add_non_negative",
            ProcessSpec.builder()
                    .input(X)
                    .input(Y)
                    .output(RESULT)
                    .exitCode(NEGATIVE)
                    .build(),
            in -> {
                long sum = in.get(X).value() + in.get(Y).value();
                return sum < 0 ? Outputs.failed(NEGATIVE.format("sum", sum)) : Outputs.of(RESULT, new IntData(sum));
            });

    public static final InputPort<BoolData> FAIL_AFTER =
            InputPort.optional("fail", BoolData.class).withDefault(() -> new BoolData(false));

    /** Submits add(x, y), waits for it, then fails when {@code fail} is true, else returns the sum. */
    public static final class ChildThenFail extends WorkChain {
        public static final WorkChainDefinition<ChildThenFail> DEFINITION = new WorkChainDefinition<>(
                "test.child_then_fail",
                ProcessSpec.builder()
                        .input(X)
                        .input(Y)
                        .input(FAIL_AFTER)
                        .output(RESULT)
                        .build(),
                Outline.of(step(ChildThenFail::submitChild), step(ChildThenFail::finish)),
                ChildThenFail::new);

        void submitChild() {
            toContext("child", submit(ADD, Inputs.of(X, input(X), Y, input(Y))));
        }

        void finish() {
            if (input(FAIL_AFTER).value()) {
                throw new IllegalStateException("failing as asked, after the child finished");
            }
            out(RESULT, (IntData)
                    outputsOf(ctx().node("child", CalcFunctionNode.class)).get("result"));
        }
    }

    /** x + y computed by bash in a calculation job: writes the script, runs the code on it, parses the output. */
    public static final CalcJobDefinition BASH_ADD = new CalcJobDefinition(
            "test.bash_add",
            CalcJobDefinition.specBuilder().input(X).input(Y).output(RESULT).build(),
            (in, folder) -> {
                folder.write(
                        "aiida.in",
                        "echo $((" + in.get(X).value() + " + " + in.get(Y).value() + "))\n");
                return new CalcInfo(List.of(), "aiida.in", "aiida.out", null, List.of("aiida.out"));
            },
            (in, retrieved) -> Outputs.of(
                    RESULT,
                    new IntData(Long.parseLong(
                            Files.readString(retrieved.resolve("aiida.out")).strip()))));

    /** The inputs of {@link #BASH_ADD}: x + y, run by {@code code} with the default job options. */
    public static Inputs bashAdd(Code code, long x, long y) {
        return Inputs.create()
                .put(CalcJobDefinition.CODE, code)
                .put(X, new IntData(x))
                .put(Y, new IntData(y));
    }

    /** The inputs of {@link #BASH_ADD} with the job's own options. */
    public static Inputs bashAdd(Code code, long x, long y, JobOptions options) {
        return bashAdd(code, x, y).jobOptions(options);
    }

    /** Sleeps x seconds in a calculation job, then prints x. */
    public static final CalcJobDefinition BASH_SLEEP = new CalcJobDefinition(
            "test.bash_sleep",
            CalcJobDefinition.specBuilder().input(X).output(RESULT).build(),
            (in, folder) -> {
                folder.write(
                        "aiida.in",
                        "sleep " + in.get(X).value() + "; echo " + in.get(X).value() + "\n");
                return new CalcInfo(List.of(), "aiida.in", "aiida.out", null, List.of("aiida.out"));
            },
            (in, retrieved) -> Outputs.of(
                    RESULT,
                    new IntData(Long.parseLong(
                            Files.readString(retrieved.resolve("aiida.out")).strip()))));

    /** Submits add(x, y) as a child, waits for it, then adds y again inline: result x + 2y. */
    public static final class ChildThenAdd extends WorkChain {
        public static final WorkChainDefinition<ChildThenAdd> DEFINITION = new WorkChainDefinition<>(
                "test.child_then_add",
                ProcessSpec.builder().input(X).input(Y).output(RESULT).build(),
                Outline.of(step(ChildThenAdd::submitChild), step(ChildThenAdd::finish)),
                ChildThenAdd::new);

        void submitChild() {
            toContext("child", submit(ADD, Inputs.of(X, input(X), Y, input(Y))));
        }

        void finish() {
            CalcFunctionNode child = ctx().node("child", CalcFunctionNode.class);
            IntData sum = (IntData) outputsOf(child).get("result");
            out(RESULT, run(ADD, Inputs.of(X, sum, Y, input(Y))).get(RESULT));
        }
    }

    /**
     * Says which of three branches x took (an if, an else-if that returns early, an else), then
     * a last step marks that it ran: negative and positive x reach it, zero returns before.
     */
    public static final class Classify extends WorkChain {
        public static final OutputPort<StrData> BRANCH = OutputPort.required("branch", StrData.class);
        public static final OutputPort<BoolData> LAST_STEP = OutputPort.optional("last_step", BoolData.class);

        public static final WorkChainDefinition<Classify> DEFINITION = new WorkChainDefinition<>(
                "test.classify",
                ProcessSpec.builder().input(X).output(BRANCH).output(LAST_STEP).build(),
                Outline.of(
                        when(Classify::negative, step(c -> c.branch("negative")))
                                .elseWhen(Classify::zero, step(c -> c.branch("zero")), Outline.returnOk())
                                .otherwise(step(c -> c.branch("positive"))),
                        step(Classify::last)),
                Classify::new);

        boolean negative() {
            return input(X).value() < 0;
        }

        boolean zero() {
            return input(X).value() == 0;
        }

        void branch(String name) {
            out(BRANCH, run(NAMED, Inputs.of(NAME, new StrData(name))).get(NAMED_RESULT));
        }

        void last() {
            out(LAST_STEP, run(MARK, Inputs.create()).get(MARKED));
        }
    }

    static final InputPort<StrData> NAME = InputPort.required("name", StrData.class);
    static final OutputPort<StrData> NAMED_RESULT = OutputPort.required("result", StrData.class);
    static final OutputPort<BoolData> MARKED = OutputPort.required("result", BoolData.class);

    /** Returns its input as a new node (a work chain returns what a calculation made). */
    public static final CalcFunction NAMED =
            CalcFunction.of("test.named", NAME, NAMED_RESULT, name -> new StrData(name.value()));

    public static final CalcFunction MARK = new CalcFunction(
            "test.mark",
            ProcessSpec.builder().output(MARKED).build(),
            in -> Outputs.create().put(MARKED, new BoolData(true)));

    /** Waits for a child add(x, y), then for a second add(sum, y): two rounds of waiting, result x + 2y. */
    public static final class TwoRounds extends WorkChain {
        public static final WorkChainDefinition<TwoRounds> DEFINITION = new WorkChainDefinition<>(
                "test.two_rounds",
                ProcessSpec.builder().input(X).input(Y).output(RESULT).build(),
                Outline.of(step(TwoRounds::first), step(TwoRounds::second), step(TwoRounds::finish)),
                TwoRounds::new);

        void first() {
            toContext("first", submit(ADD, Inputs.of(X, input(X), Y, input(Y))));
        }

        void second() {
            IntData sum = (IntData)
                    outputsOf(ctx().node("first", CalcFunctionNode.class)).get("result");
            toContext("second", submit(ADD, Inputs.of(X, sum, Y, input(Y))));
        }

        void finish() {
            out(RESULT, (IntData)
                    outputsOf(ctx().node("second", CalcFunctionNode.class)).get("result"));
        }
    }

    /** Submits x children child_then_add(i, 1), waits for all, sums their results: sum of (i + 2). */
    public static final class FanOut extends WorkChain {
        public static final WorkChainDefinition<FanOut> DEFINITION = new WorkChainDefinition<>(
                "test.fan_out",
                ProcessSpec.builder().input(X).output(RESULT).build(),
                Outline.of(
                        step(FanOut::launch),
                        when(FanOut::none, step(FanOut::zero)).otherwise(step(FanOut::sum))),
                FanOut::new);

        void launch() {
            for (long i = 0; i < input(X).value(); i++) {
                appendToContext(
                        "children",
                        submit(ChildThenAdd.DEFINITION, Inputs.of(X, new IntData(i), Y, new IntData(1)), "child_" + i));
            }
        }

        boolean none() {
            return input(X).value() == 0;
        }

        void zero() {
            out(
                    RESULT,
                    run(ADD, Inputs.of(X, new IntData(0), Y, new IntData(0))).get(RESULT));
        }

        void sum() {
            IntData total = new IntData(0);
            for (WorkChainNode child : ctx().nodes("children", WorkChainNode.class)) {
                IntData r = (IntData) outputsOf(child).get("result");
                total = run(ADD, Inputs.of(X, total, Y, r)).get(RESULT);
            }
            out(RESULT, total);
        }
    }

    /**
     * Appends add(x + i, 1) for i = 0..3 to one context key, then outputs 1 when the key holds
     * them in submission order (some may come from the cache, some run), else 0.
     */
    public static final class AppendsInOrder extends WorkChain {
        public static final WorkChainDefinition<AppendsInOrder> DEFINITION = new WorkChainDefinition<>(
                "test.appends_in_order",
                ProcessSpec.builder().input(X).output(RESULT).build(),
                Outline.of(step(AppendsInOrder::launch), step(AppendsInOrder::check)),
                AppendsInOrder::new);

        void launch() {
            for (long i = 0; i < 4; i++) {
                appendToContext(
                        "sums", submit(ADD, Inputs.of(X, new IntData(input(X).value() + i), Y, new IntData(1))));
            }
        }

        void check() {
            boolean inOrder = true;
            long i = 0;
            for (CalcFunctionNode add : ctx().nodes("sums", CalcFunctionNode.class)) {
                inOrder &= ((IntData) outputsOf(add).get("result")).value() == input(X).value() + i++ + 1;
            }
            out(
                    RESULT,
                    run(ADD, Inputs.of(X, new IntData(inOrder && i == 4 ? 1 : 0), Y, new IntData(0)))
                            .get(RESULT));
        }
    }

    /** Submits slow(x) as a child and waits for it; then returns its result. */
    public static final class WaitSlow extends WorkChain {
        public static final WorkChainDefinition<WaitSlow> DEFINITION = new WorkChainDefinition<>(
                "test.wait_slow",
                ProcessSpec.builder().input(X).output(RESULT).build(),
                Outline.of(step(WaitSlow::launch), step(WaitSlow::finish)),
                WaitSlow::new);

        void launch() {
            toContext("slow", submit(SLOW, Inputs.of(X, input(X))));
        }

        void finish() {
            out(RESULT, (IntData)
                    outputsOf(ctx().node("slow", CalcFunctionNode.class)).get("result"));
        }
    }

    /**
     * Sleeps x milliseconds in its first step (a long-running step of a work chain), submits
     * add(x, 1) as a child and waits for it; then returns its result, x + 1.
     */
    public static final class SlowThenChild extends WorkChain {
        public static final WorkChainDefinition<SlowThenChild> DEFINITION = new WorkChainDefinition<>(
                "test.slow_then_child",
                ProcessSpec.builder().input(X).output(RESULT).build(),
                Outline.of(step(SlowThenChild::launch), step(SlowThenChild::finish)),
                SlowThenChild::new);

        void launch() {
            try {
                Thread.sleep(input(X).value());
            } catch (InterruptedException e) {
                throw new IllegalStateException("interrupted", e);
            }
            toContext("child", submit(ADD, Inputs.of(X, input(X), Y, new IntData(1))));
        }

        void finish() {
            out(RESULT, (IntData)
                    outputsOf(ctx().node("child", CalcFunctionNode.class)).get("result"));
        }
    }

    /** Runs add inline, then fails: the step must leave nothing behind but the excepted node. */
    public static final class FailInStep extends WorkChain {
        public static final WorkChainDefinition<FailInStep> DEFINITION = new WorkChainDefinition<>(
                "test.fail_in_step",
                ProcessSpec.builder().input(X).output(RESULT).build(),
                Outline.of(step(FailInStep::addThenFail)),
                FailInStep::new);

        void addThenFail() {
            run(ADD, Inputs.of(X, input(X), Y, input(X)));
            throw new IllegalStateException("failing after a calcfunction ran");
        }
    }

    @Override
    public String name() {
        return "engine-tests";
    }

    @Override
    public List<ProcessDefinition> processes() {
        List<ProcessDefinition> all = new ArrayList<>(List.of(
                ADD,
                BASH_ADD,
                BASH_SLEEP,
                ADD_NON_NEGATIVE,
                ChildThenFail.DEFINITION,
                SLOW,
                FAIL,
                ADD_TWICE,
                ChildThenAdd.DEFINITION,
                FanOut.DEFINITION,
                AppendsInOrder.DEFINITION,
                WaitSlow.DEFINITION,
                FailInStep.DEFINITION,
                Classify.DEFINITION,
                TwoRounds.DEFINITION,
                NAMED,
                MARK,
                SlowThenChild.DEFINITION,
                WRITE_FILE));
        all.addAll(ProcessFunctions.of(AnnotatedFunctions.class));
        return all;
    }
}
