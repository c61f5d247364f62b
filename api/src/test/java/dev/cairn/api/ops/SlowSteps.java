package dev.cairn.api.ops;

import java.util.List;

import dev.cairn.engine.plugin.CairnPlugin;
import dev.cairn.engine.process.CalcFunction;
import dev.cairn.engine.process.InputPort;
import dev.cairn.engine.process.OutputPort;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.storage.graph.IntData;

/**
 * A plugin of one process whose step takes as long as it is told, for the tests that stop the server
 * or take its services away while a step runs. It reaches a server only through its plugin folder
 * ({@link PluginJar}), so no other test's server knows it.
 */
public final class SlowSteps implements CairnPlugin {

    public static final InputPort<IntData> MILLIS = InputPort.required("millis", IntData.class);
    public static final OutputPort<IntData> SLEPT = OutputPort.required("slept", IntData.class);

    /** Sleeps {@code millis}, then returns them. */
    public static final CalcFunction SLEEP = CalcFunction.of("ops_test.sleep", MILLIS, SLEPT, millis -> {
        try {
            Thread.sleep(millis.value());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted after less than " + millis.value() + " ms", e);
        }
        return new IntData(millis.value());
    });

    @Override
    public String name() {
        return "ops-test";
    }

    @Override
    public List<ProcessDefinition> processes() {
        return List.of(SLEEP);
    }
}
