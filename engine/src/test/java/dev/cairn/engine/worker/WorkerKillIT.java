package dev.cairn.engine.worker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.engine.Engine;
import dev.cairn.engine.testing.ChainRun;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.engine.testing.WorkerJvm;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * Workers in JVMs of their own, one of them killed with SIGKILL in the middle of a run (its
 * steps in flight, its tasks unacknowledged, perhaps a commit not yet published), then the
 * other: every process still runs exactly once.
 */
class WorkerKillIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @Test
    void killingWorkersMidRunLosesNothingAndDoublesNothing() throws Exception {
        List<WorkerJvm> workers = new CopyOnWriteArrayList<>();
        try (Engine engine = EngineFixture.withBroker(db, broker)) {
            // the test's engine migrated the schema: the workers start on a ready database
            workers.add(WorkerJvm.start("a", db, broker, 4));
            workers.add(WorkerJvm.start("b", db, broker, 4));
            ChainRun run = ChainRun.of(300, 30, 4).submit(engine);

            run.awaitSteps(db, 0.25, Duration.ofSeconds(60), () -> logs(workers));
            long firstKill = ChainRun.stepsCommitted(db);
            workers.get(0).kill9();
            // the replacements start while the run goes on (a JVM takes seconds to be ready)
            CompletableFuture<WorkerJvm> c = startLater("c", workers);

            run.awaitSteps(db, 0.55, Duration.ofSeconds(60), () -> logs(workers));
            long secondKill = ChainRun.stepsCommitted(db);
            workers.get(1).kill9();
            CompletableFuture<WorkerJvm> d = startLater("d", workers);

            run.awaitAllFinished(db, Duration.ofSeconds(90), () -> logs(workers));
            run.assertExactlyOnce(db);
            ChainRun.awaitOutboxEmpty(db, Duration.ofSeconds(30));
            System.out.println(
                    "WorkerKillIT: " + run.size() + " root chains, " + run.totalSteps() + " steps; kills after "
                            + firstKill + " and " + secondKill + " steps; "
                            + workers.stream()
                                    .mapToLong(w -> w.logLines("left in the outbox"))
                                    .sum() + " outbox relays logged");
            for (WorkerJvm w : List.of(c.get(), d.get())) {
                // a JVM ended by SIGTERM exits with 128 + 15 once its shutdown hooks have run
                int exit = w.stop(Duration.ofSeconds(40));
                if (exit != 143 && exit != 0) {
                    throw new AssertionError(
                            "worker " + w.name() + " exited with " + exit + " on SIGTERM:\n" + w.tail());
                }
            }
        } finally {
            workers.forEach(WorkerJvm::close);
        }
    }

    private static CompletableFuture<WorkerJvm> startLater(String name, List<WorkerJvm> workers) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                WorkerJvm w = WorkerJvm.start(name, db, broker, 4);
                workers.add(w);
                return w;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
    }

    private static String logs(List<WorkerJvm> workers) {
        return workers.stream()
                .map(w -> "--- worker " + w.name() + (w.isAlive() ? "" : " (dead)") + ", log " + w.log() + ":\n"
                        + w.tail())
                .collect(Collectors.joining("\n"));
    }
}
