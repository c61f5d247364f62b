package dev.cairn.api.testing;

import java.util.List;

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

/**
 * Processes that take their time, for tests that need one alive: {@code test.sleep} sleeps in
 * its step, {@code test.parent} waits for a {@code test.sleep} child. On the server's class path
 * in tests only.
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

    @Override
    public String name() {
        return "api-tests";
    }

    @Override
    public List<ProcessDefinition> processes() {
        return List.of(SLEEP, Parent.DEFINITION);
    }
}
