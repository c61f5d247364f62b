package dev.cairn.api.testing;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.cairn.engine.plugin.CairnPlugin;
import dev.cairn.engine.process.CalcFunction;
import dev.cairn.engine.process.InputPort;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.Outline;
import dev.cairn.engine.process.OutputPort;
import dev.cairn.engine.process.Outputs;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.engine.process.WorkChain;
import dev.cairn.engine.process.WorkChainDefinition;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.StrData;

/**
 * Processes that take their time, for tests that need one alive: {@code test.sleep} sleeps in
 * its step, {@code test.parent} waits for a {@code test.sleep} child, {@code test.gate} ends when the
 * test opens its gate ({@link #open}; the worker runs in the test's JVM), {@code test.gated_parent}
 * reports and submits a {@code test.gate} child once its gate is open, {@code test.fan_out} submits
 * {@code count} {@code test.sleep} children of no seconds once its gate is open, which end one after
 * another as the worker slots take them. On the server's class path in tests only.
 */
public final class SlowProcesses implements CairnPlugin {

    public static final InputPort<IntData> SECONDS = InputPort.required("seconds", IntData.class);
    public static final OutputPort<IntData> SLEPT = OutputPort.required("slept", IntData.class);

    /** Sleeps {@code seconds} in its only step (a kill interrupts it). */
    public static final CalcFunction SLEEP = new CalcFunction(
            "test.sleep", ProcessSpec.builder().input(SECONDS).output(SLEPT).build(), in -> {
                long seconds = in.get(SECONDS).value();
                Thread.sleep(seconds * 1000);
                return Outputs.of(SLEPT, new IntData(seconds));
            });

    public static final InputPort<StrData> GATE = InputPort.required("gate", StrData.class);

    private static final Map<String, CountDownLatch> GATES = new ConcurrentHashMap<>();

    /** Waits in its only step until the test opens the gate it names, at most two minutes (a kill interrupts it). */
    public static final CalcFunction GATED = new CalcFunction(
            "test.gate", ProcessSpec.builder().input(GATE).output(SLEPT).build(), in -> {
                if (!gate(in.get(GATE).value()).await(2, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("the gate " + in.get(GATE).value() + " stayed shut");
                }
                return Outputs.of(SLEPT, new IntData(0));
            });

    /** Lets the {@code test.gate} processes waiting at gate {@code name} end (and any that come to it later). */
    public static void open(String name) {
        gate(name).countDown();
    }

    private static CountDownLatch gate(String name) {
        return GATES.computeIfAbsent(name, n -> new CountDownLatch(1));
    }

    /**
     * Waits at its gate in its first step, then reports it passed and submits a {@code test.gate} child at
     * the gate {@code <gate>.child}, which the test opens next; reports again when the child has ended, and
     * returns what the child returned. Each report line commits with the step that wrote it, while the
     * chain is alive.
     */
    public static final class GatedParent extends WorkChain {

        public static final WorkChainDefinition<GatedParent> DEFINITION = new WorkChainDefinition<>(
                "test.gated_parent",
                ProcessSpec.builder().input(GATE).output(SLEPT).build(),
                Outline.of(
                        Outline.step(GatedParent::waitAtGate),
                        Outline.step(GatedParent::submitChild),
                        Outline.step(GatedParent::done)),
                GatedParent::new);

        /** The gate of the child of the chain at {@code gate}. */
        public static String childGate(String gate) {
            return gate + ".child";
        }

        void waitAtGate() throws InterruptedException {
            if (!gate(input(GATE).value()).await(2, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the gate " + input(GATE).value() + " stayed shut");
            }
        }

        void submitChild() {
            report("passed the gate");
            toContext(
                    "child",
                    submit(
                            GATED,
                            Inputs.of(GATE, new StrData(childGate(input(GATE).value())))));
        }

        void done() {
            report("the child passed the gate");
            out(SLEPT, (IntData)
                    outputsOf(ctx().node("child", ProcessNode.class)).get(SLEPT.path()));
        }
    }

    /** Submits a {@code test.sleep} child and waits for it. */
    public static final class Parent extends WorkChain {

        public static final WorkChainDefinition<Parent> DEFINITION = new WorkChainDefinition<>(
                "test.parent",
                ProcessSpec.builder().input(SECONDS).build(),
                Outline.of(Outline.step(Parent::submitChild), Outline.step(Parent::done)),
                Parent::new);

        void submitChild() {
            toContext("child", submit(SLEEP, Inputs.of(SECONDS, input(SECONDS))));
        }

        void done() {
            report("the child slept");
        }
    }

    public static final InputPort<IntData> COUNT = InputPort.required("count", IntData.class);

    /**
     * Waits at its gate, then submits {@code count} {@code test.sleep} children of no seconds at once and
     * waits for them all: a big call tree whose children end one after another, each an event of its tree.
     */
    public static final class FanOut extends WorkChain {

        public static final WorkChainDefinition<FanOut> DEFINITION = new WorkChainDefinition<>(
                "test.fan_out",
                ProcessSpec.builder().input(GATE).input(COUNT).build(),
                Outline.of(
                        Outline.step(FanOut::waitAtGate),
                        Outline.step(FanOut::submitChildren),
                        Outline.step(FanOut::done)),
                FanOut::new);

        void waitAtGate() throws InterruptedException {
            if (!gate(input(GATE).value()).await(2, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the gate " + input(GATE).value() + " stayed shut");
            }
        }

        void submitChildren() {
            for (long i = 0; i < input(COUNT).value(); i++) {
                appendToContext("children", submit(SLEEP, Inputs.of(SECONDS, new IntData(0L))));
            }
        }

        void done() {
            report("all " + input(COUNT).value() + " children ended");
        }
    }

    @Override
    public String name() {
        return "api-tests";
    }

    @Override
    public List<ProcessDefinition> processes() {
        return List.of(SLEEP, GATED, Parent.DEFINITION, GatedParent.DEFINITION, FanOut.DEFINITION);
    }
}
