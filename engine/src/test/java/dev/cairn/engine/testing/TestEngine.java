package dev.cairn.engine.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.cairn.engine.Engine;
import dev.cairn.engine.caching.CachingPolicy;
import dev.cairn.engine.worker.Worker;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * One test class's engine and what it stands on, opened before the class's first test and closed
 * after its last: a database of its own, a virtual host of its own when asked, a folder, an object
 * store in it when asked, and a worker when asked.
 * {@snippet :
 * @RegisterExtension
 * static final TestEngine fixture = TestEngine.withBroker().withObjects().withWorker(2);
 *
 * @Test void ...() {
 *     fixture.engine().launcher().submit(...);
 * }
 * }
 * The engine is opened through {@link EngineFixture#open}, so it counts for the suite's
 * state-transition coverage. Closing goes the other way round: worker, engine, broker, database,
 * folder.
 */
public final class TestEngine implements BeforeAllCallback, AfterAllCallback {

    private final TestDatabase db = new TestDatabase();
    private final TestBroker broker;
    private final boolean engineUsesBroker;
    private boolean objects;
    private CachingPolicy caching = CachingPolicy.OFF;
    private int workerSlots;

    private String ownerId;
    private Path dir;
    private Engine engine;
    private Worker worker;

    private TestEngine(TestBroker broker, boolean engineUsesBroker) {
        this.broker = broker;
        this.engineUsesBroker = engineUsesBroker;
    }

    /** An engine without a broker: it runs processes in-process only. */
    public static TestEngine local() {
        return new TestEngine(null, false);
    }

    /** An engine without a broker, beside a virtual host of the class's own for the engines its tests open. */
    public static TestEngine localBesideBroker() {
        return new TestEngine(new TestBroker(), false);
    }

    /** An engine on a virtual host of the class's own: it submits to workers. */
    public static TestEngine withBroker() {
        return new TestEngine(new TestBroker(), true);
    }

    /** With a new object store in {@link #objectStore()}: the engine runs calculation jobs. */
    public TestEngine withObjects() {
        this.objects = true;
        return this;
    }

    /** With the caching policy {@code caching} (off by default). */
    public TestEngine withCaching(CachingPolicy caching) {
        this.caching = caching;
        return this;
    }

    /** With a worker of {@code slots} slots on the engine, started once it is open (it needs the broker). */
    public TestEngine withWorker(int slots) {
        if (!engineUsesBroker) {
            throw new IllegalStateException("a worker takes its tasks from the broker: use TestEngine.withBroker()");
        }
        this.workerSlots = slots;
        return this;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        if (ownerId != null) {
            return; // a @Nested class shares its outer class's engine
        }
        ownerId = context.getUniqueId();
        db.beforeAll(context);
        if (broker != null) {
            broker.beforeAll(context);
        }
        dir = Files.createTempDirectory(context.getRequiredTestClass().getSimpleName());
        if (objects) {
            Container.init(objectStore(), ContainerConfig.defaults()).close();
        }
        engine = EngineFixture.open(new Engine.Config(
                DatabaseConfig.of(db.jdbcUrl()).withPoolSize(poolSize()),
                engineUsesBroker ? EngineFixture.amqpUri(broker) : null,
                "cairn",
                objects ? objectStore() : null,
                EngineFixture.plugins(),
                caching));
        if (workerSlots > 0) {
            worker = engine.startWorker(Worker.Settings.defaults(workerSlots));
        }
    }

    /** The pools the engines of these tests always had: 4 without a broker, 6 with one and a store, 8 with one alone. */
    private int poolSize() {
        return !engineUsesBroker ? 4 : objects ? 6 : 8;
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (!context.getUniqueId().equals(ownerId)) {
            return;
        }
        ownerId = null;
        try (Engine closing = engine;
                Worker stopping = worker) {
            engine = null;
            worker = null;
        } finally {
            try {
                if (broker != null) {
                    broker.afterAll(context);
                }
            } finally {
                db.afterAll(context);
                if (dir != null) {
                    deleteDir();
                }
            }
        }
    }

    private void deleteDir() throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The engine, open from before the class's first test to after its last. */
    public Engine engine() {
        if (engine == null) {
            throw new IllegalStateException("the engine is open only while the test class runs");
        }
        return engine;
    }

    /** The worker {@link #withWorker} asked for. */
    public Worker worker() {
        if (worker == null) {
            throw new IllegalStateException("no worker: ask for one with withWorker(slots)");
        }
        return worker;
    }

    /** The class's database. */
    public TestDatabase db() {
        return db;
    }

    /** The class's virtual host. */
    public TestBroker broker() {
        if (broker == null) {
            throw new IllegalStateException("no broker: use TestEngine.withBroker() or localBesideBroker()");
        }
        return broker;
    }

    /** The class's folder, deleted after its last test. */
    public Path dir() {
        return dir;
    }

    /** Where the object store is ({@code objects} in the class's folder). */
    public Path objectStore() {
        return dir.resolve("objects");
    }
}
