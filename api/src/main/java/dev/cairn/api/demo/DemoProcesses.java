package dev.cairn.api.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.cairn.engine.Engine;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.storage.graph.CachingExtras;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkTriple;
import dev.cairn.storage.graph.ProcessNode;

/**
 * The demo's processes, from the examples plugin, submitted through the engine's launcher to the
 * workers: two work chains of calcfunctions, a work chain around a bash calculation job, then that
 * job's calculation again with caching on for the launch, which takes the first job's outputs
 * instead of running bash. A work chain's own launch override would not reach the calculations it
 * calls, so the cached rerun launches the calculation itself.
 */
final class DemoProcesses {

    /** Where the table looks for what a process cached from. */
    private static final Duration POLL = Duration.ofMillis(50);

    private final Engine engine;
    private final Duration timeout;

    DemoProcesses(Engine engine, Duration timeout) {
        this.engine = engine;
        this.timeout = timeout;
    }

    /** The processes that run first, at once. */
    List<DemoLaunch> first(InstalledCode bash) {
        return List.of(
                new DemoLaunch(
                        "arithmetic.add_multiply(x=2, y=3, z=4)",
                        definition("arithmetic.add_multiply"),
                        Inputs.create()
                                .put("x", new IntData(2))
                                .put("y", new IntData(3))
                                .put("z", new IntData(4)),
                        "result"),
                new DemoLaunch(
                        "examples.sum_series(n=10)",
                        definition("examples.sum_series"),
                        Inputs.create().put("n", new IntData(10)),
                        "total"),
                new DemoLaunch(
                        "arithmetic.add_calcjob_workchain(code=bash@localhost, x=4, y=5)",
                        definition("arithmetic.add_calcjob_workchain"),
                        Inputs.create()
                                .put("code", bash)
                                .put("x", new IntData(4))
                                .put("y", new IntData(5)),
                        "result"));
    }

    /** The bash job of {@link #first}'s work chain again, with caching on for this launch. */
    DemoLaunch cachedRerun(InstalledCode bash) {
        return new DemoLaunch(
                "arithmetic.add(code=bash@localhost, x=4, y=5), use_cache",
                definition("arithmetic.add"),
                Inputs.create()
                        .put("code", bash)
                        .put("x", new IntData(4))
                        .put("y", new IntData(5))
                        .useCache(true),
                "result");
    }

    /** Submits {@code launches} together and waits for each to end (or the timeout to pass). */
    List<DemoOutcome> run(List<DemoLaunch> launches) throws InterruptedException {
        List<ProcessNode> submitted = new ArrayList<>();
        for (DemoLaunch launch : launches) {
            submitted.add(engine.launcher().submit(launch.definition(), launch.inputs()));
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        List<DemoOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < launches.size(); i++) {
            outcomes.add(outcome(launches.get(i), awaitEnd(submitted.get(i), deadline)));
        }
        return outcomes;
    }

    private ProcessNode awaitEnd(ProcessNode node, long deadline) throws InterruptedException {
        ProcessNode now = node;
        while (!now.isSealed() && System.nanoTime() < deadline) {
            Thread.sleep(POLL);
            now = engine.graph().load(node.id(), ProcessNode.class);
        }
        return now;
    }

    private DemoOutcome outcome(DemoLaunch launch, ProcessNode node) {
        Object result = engine.graph().outgoing(node).stream()
                .filter(link -> link.label().equals(launch.output()))
                .findFirst()
                .map(LinkTriple::nodeId)
                .map(id -> engine.graph().load(id).attribute("value"))
                .orElse(null);
        Object cachedFrom = node.extras().get(CachingExtras.CACHED_FROM);
        return new DemoOutcome(
                node.uuid().toString(),
                launch.title(),
                node.processState(),
                node.exitStatus(),
                result,
                Duration.between(node.ctime(), node.mtime()),
                cachedFrom == null ? null : cachedFrom.toString());
    }

    private ProcessDefinition definition(String entryPoint) {
        return engine.plugins().get(entryPoint);
    }
}
