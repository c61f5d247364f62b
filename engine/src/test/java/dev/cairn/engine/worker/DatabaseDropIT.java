package dev.cairn.engine.worker;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.engine.Engine;
import dev.cairn.engine.testing.ChainRun;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.engine.testing.WorkerJvm;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * Every connection to the database cut ({@code pg_terminate_backend}) several times during
 * a run, steps and commits in flight included: the worker retries its steps on fresh
 * connections, and every process runs exactly once.
 */
class DatabaseDropIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @Test
    void cuttingEveryDatabaseConnectionMidRunLosesNothingAndDoublesNothing() throws Exception {
        try (Engine engine = EngineFixture.withBroker(db, broker);
                WorkerJvm worker = WorkerJvm.start("w", db, broker, 4)) {
            ChainRun run = ChainRun.of(200, 40, 4).submit(engine);
            List<String> cuts = new ArrayList<>();
            for (double at : new double[] {0.2, 0.45, 0.7}) {
                run.awaitSteps(db, at, Duration.ofSeconds(60), worker::tail);
                long steps = ChainRun.stepsCommitted(db);
                cuts.add(terminateAllBackends() + " connections cut after " + steps + " steps");
            }
            run.awaitAllFinished(db, Duration.ofSeconds(90), worker::tail);
            run.assertExactlyOnce(db);
            ChainRun.awaitOutboxEmpty(db, Duration.ofSeconds(30));
            System.out.println("DatabaseDropIT: " + cuts + " of " + run.totalSteps() + " steps; "
                    + worker.logLines("retrying in") + " step retries logged");
        }
    }

    /**
     * Terminates every other client connection to the test database; returns how many. Server
     * processes of its own (an autovacuum worker, run as the superuser) are not Cairn's, and this
     * role may not end them.
     */
    private static int terminateAllBackends() throws Exception {
        try (Connection c = db.connect();
                PreparedStatement s = c.prepareStatement("SELECT count(*) FILTER (WHERE"
                        + " pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()"
                        + " AND backend_type = 'client backend'")) {
            s.setString(1, db.name());
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
