package dev.cairn.examples.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import dev.cairn.engine.Engine;
import dev.cairn.engine.caching.CachingPolicy;
import dev.cairn.engine.events.EventFilter;
import dev.cairn.engine.events.Subscription;
import dev.cairn.engine.launch.DryRun;
import dev.cairn.engine.launch.Launcher;
import dev.cairn.engine.plugin.PluginRegistry;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.InvalidInputsException;
import dev.cairn.engine.process.JobOptions;
import dev.cairn.engine.process.ProcessResult;
import dev.cairn.engine.worker.Worker;
import dev.cairn.examples.AddCalcJobWorkChain;
import dev.cairn.examples.AddMultiply;
import dev.cairn.examples.Arithmetic;
import dev.cairn.examples.ArithmeticAddJob;
import dev.cairn.examples.SumSeries;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkTriple;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.computers.ComputerSpec;
import dev.cairn.storage.graph.computers.ComputerStore;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;

/**
 * The engine on real PostgreSQL and RabbitMQ: a calcfunction run in-process, a work chain of
 * children on a worker, a batch of work chains, pause/play and kill, bad input refused, then
 * calculation jobs (bash through the direct scheduler): a dry run, a batch of work chains
 * around them, and the same batch again taken from the cache.
 * <pre>EngineDemo ADMIN_JDBC_URL AMQP_URI</pre>
 */
public final class EngineDemo {

    private EngineDemo() {}

    public static void main(String[] args) throws Exception {
        String url = Demos.freshDatabase(args[0], "cairn_demo_engine");
        Path scratch = Path.of(System.getProperty("java.io.tmpdir"), "cairn-demo", "engine");
        Demos.delete(scratch);
        Files.createDirectories(scratch);
        Path store = scratch.resolve("objects");
        Container.init(store, ContainerConfig.defaults()).close();
        Map<String, AtomicInteger> changes = new ConcurrentHashMap<>();
        try (Engine engine = Engine.open(new Engine.Config(
                        DatabaseConfig.of(url).withPoolSize(6),
                        args[1],
                        "cairn-demo",
                        store,
                        PluginRegistry.load(EngineDemo.class.getClassLoader())));
                Subscription watch = engine.subscribe(
                        EventFilter.all(),
                        change -> changes.computeIfAbsent(change.to().dbValue(), k -> new AtomicInteger())
                                .incrementAndGet())) {
            System.out.println("plugins: "
                    + engine.plugins().all().stream().map(d -> d.entryPoint()).toList());

            ProcessResult add = engine.launcher()
                    .run(Arithmetic.ADD, Inputs.of(Arithmetic.X, new IntData(20), Arithmetic.Y, new IntData(22)));
            System.out.println("run arithmetic.add_function(20, 22) in this thread: "
                    + add.get(Arithmetic.RESULT).value()
                    + ", " + add.node().describe() + " " + add.node().processState() + ", links out "
                    + engine.graph().outgoing(add.node()).stream()
                            .map(LinkTriple::toString)
                            .toList());

            try (Worker worker = engine.startWorker(Worker.Settings.defaults(2))) {
                long t0 = System.nanoTime();
                ProcessNode series = engine.launcher()
                        .submit(
                                SumSeries.DEFINITION,
                                Inputs.of(SumSeries.N, new IntData(40), SumSeries.BATCH, new IntData(10)));
                ProcessNode wc = awaitEnd(engine, series);
                System.out.printf(
                        "submitted examples.sum_series(n=40): %s with exit %d in %.0f ms; total = %d%n",
                        wc.processState(), wc.exitStatus(), (System.nanoTime() - t0) / 1e6, total(engine, wc));

                List<Launcher.Launch> batch = new ArrayList<>();
                for (int i = 0; i < 500; i++) {
                    batch.add(new Launcher.Launch(
                            AddMultiply.DEFINITION,
                            Inputs.of(
                                    AddMultiply.X,
                                    new IntData(i),
                                    AddMultiply.Y,
                                    new IntData(1),
                                    AddMultiply.Z,
                                    new IntData(2))));
                }
                t0 = System.nanoTime();
                List<ProcessNode> nodes = engine.launcher().submitAll(batch);
                for (ProcessNode n : nodes) {
                    awaitEnd(engine, n);
                }
                double s = (System.nanoTime() - t0) / 1e9;
                System.out.printf(
                        "500 arithmetic.add_multiply work chains (1,500 processes) on one worker with 2 slots:"
                                + " %.1f s, %.0f processes/s%n",
                        s, 1500 / s);

                ProcessNode paused =
                        engine.launcher().submit(SumSeries.DEFINITION, Inputs.of(SumSeries.N, new IntData(20)));
                engine.control().pause(paused.id());
                Thread.sleep(1000);
                System.out.println("paused " + paused.describe() + ": after 1 s it is "
                        + reload(engine, paused).processState() + " (paused "
                        + reload(engine, paused).isPaused() + ")");
                engine.control().play(paused.id());
                System.out.println("played: " + awaitEnd(engine, paused).processState());

                ProcessNode doomed = engine.launcher()
                        .submit(
                                SumSeries.DEFINITION,
                                Inputs.of(SumSeries.N, new IntData(200), SumSeries.BATCH, new IntData(100)));
                while (!"waiting".equals(reload(engine, doomed).processState())) {
                    Thread.sleep(10);
                }
                List<Long> killed = engine.control().kill(doomed.id());
                System.out.println(
                        "killed a waiting sum_series and its live children: " + killed.size() + " processes");
            }

            try {
                engine.launcher()
                        .submit(
                                SumSeries.DEFINITION,
                                Inputs.create().put("n", new IntData(-1)).put("m", new IntData(1)));
            } catch (InvalidInputsException e) {
                System.out.println("bad input refused, nothing stored: " + e.getMessage());
            }
            Thread.sleep(300);
            System.out.println("state changes broadcast: " + changes);

            calculationJobs(engine, url, args[1], store, scratch.resolve("jobs"));
        }
    }

    /** arithmetic.add jobs on this machine, in work chains; then the same work chains with caching on. */
    private static void calculationJobs(Engine engine, String url, String amqpUri, Path store, Path jobs)
            throws Exception {
        long localhost = new ComputerStore(engine.database())
                .create(new ComputerSpec(
                        "localhost",
                        "localhost",
                        "this machine",
                        "core.local",
                        "core.direct",
                        Map.of("workdir", jobs.toString())))
                .id();
        InstalledCode bash = engine.graph().store(new InstalledCode(localhost, "/bin/bash"));
        DryRun dry = engine.launcher()
                .dryRun(
                        ArithmeticAddJob.DEFINITION,
                        Inputs.create()
                                .put(CalcJobDefinition.CODE, bash)
                                .put(Arithmetic.X, new IntData(1))
                                .put(Arithmetic.Y, new IntData(2))
                                .jobOptions(JobOptions.defaults().withLimits(600L, null)),
                        jobs.resolveSibling("dry-run"));
        System.out.println("dry run of arithmetic.add, nothing stored or submitted; its submit script:\n  "
                + dry.script().strip().replace("\n", "\n  "));

        List<Launcher.Launch> batch = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            batch.add(new Launcher.Launch(
                    AddCalcJobWorkChain.DEFINITION,
                    Inputs.of(
                            AddCalcJobWorkChain.CODE,
                            bash,
                            AddCalcJobWorkChain.X,
                            new IntData(i),
                            AddCalcJobWorkChain.Y,
                            new IntData(1))));
        }
        double first;
        try (Worker worker = engine.startWorker(Worker.Settings.defaults(4))) {
            first = runAll(engine, batch);
        }
        long workdirs = countWorkdirs(jobs);
        System.out.printf(
                "100 arithmetic.add_calcjob_workchain (100 bash jobs, 300 processes) on one worker: %.1f s,"
                        + " %d job work directories%n",
                first, workdirs);

        try (Engine caching = Engine.open(new Engine.Config(
                        DatabaseConfig.of(url).withPoolSize(6),
                        amqpUri,
                        "cairn-demo",
                        store,
                        PluginRegistry.load(EngineDemo.class.getClassLoader()),
                        new CachingPolicy(false, List.of("arithmetic.add", "arithmetic.add_function"), List.of())));
                Worker worker = caching.startWorker(Worker.Settings.defaults(4))) {
            double again = runAll(caching, batch);
            System.out.printf(
                    "the same 100 with caching on: %.1f s (%.1fx faster), new job work directories: %d%n",
                    again, first / again, countWorkdirs(jobs) - workdirs);
            System.out.println("explain: "
                    + caching.launcher()
                            .explainCache(
                                    ArithmeticAddJob.DEFINITION,
                                    Inputs.create()
                                            .put(CalcJobDefinition.CODE, bash)
                                            .put(Arithmetic.X, new IntData(7))
                                            .put(Arithmetic.Y, new IntData(2))));
        }
    }

    private static double runAll(Engine engine, List<Launcher.Launch> batch) throws InterruptedException {
        long t0 = System.nanoTime();
        for (ProcessNode n : engine.launcher().submitAll(batch)) {
            ProcessNode done = awaitEnd(engine, n);
            if (!"finished".equals(done.processState()) || done.exitStatus() != 0) {
                throw new IllegalStateException(done.describe() + " ended " + done.processState());
            }
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    private static long countWorkdirs(Path jobs) throws IOException {
        if (!Files.isDirectory(jobs)) {
            return 0;
        }
        try (var walk = Files.walk(jobs, 3)) {
            return walk.filter(p -> jobs.relativize(p).getNameCount() == 3).count();
        }
    }

    private static ProcessNode reload(Engine engine, ProcessNode n) {
        return (ProcessNode) engine.graph().load(n.id());
    }

    private static ProcessNode awaitEnd(Engine engine, ProcessNode n) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            ProcessNode now = reload(engine, n);
            if (now.isSealed()) {
                return now;
            }
            Thread.sleep(10);
        }
        throw new IllegalStateException(n.describe() + " did not end within 2 minutes");
    }

    private static long total(Engine engine, ProcessNode wc) {
        return engine.graph().outgoing(wc).stream()
                .filter(l -> l.label().equals("total"))
                .map(l -> ((IntData) engine.graph().load(l.nodeId())).value())
                .findFirst()
                .orElse(-1L);
    }
}
