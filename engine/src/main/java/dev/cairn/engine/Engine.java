package dev.cairn.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import dev.cairn.engine.caching.CachingPolicy;
import dev.cairn.engine.computers.ComputerCheck;
import dev.cairn.engine.computers.ComputerTestReport;
import dev.cairn.engine.computers.ExecutableLookup;
import dev.cairn.engine.computers.WorkdirRemoval;
import dev.cairn.engine.control.ProcessControl;
import dev.cairn.engine.events.EventFilter;
import dev.cairn.engine.events.EventLog;
import dev.cairn.engine.events.StateChanged;
import dev.cairn.engine.events.Subscription;
import dev.cairn.engine.internal.broker.Broadcasts;
import dev.cairn.engine.internal.broker.BrokerConnection;
import dev.cairn.engine.internal.broker.BrokerProbe;
import dev.cairn.engine.internal.broker.QueueTaskSink;
import dev.cairn.engine.internal.broker.TaskPublisher;
import dev.cairn.engine.internal.calcjob.ComputerAccess;
import dev.cairn.engine.internal.runtime.StepExecutor;
import dev.cairn.engine.internal.state.ProcessStates;
import dev.cairn.engine.internal.state.ProcessTable;
import dev.cairn.engine.internal.state.Task;
import dev.cairn.engine.launch.Launcher;
import dev.cairn.engine.metrics.EngineMetrics;
import dev.cairn.engine.plugin.PluginRegistry;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.engine.transport.TransportPool;
import dev.cairn.engine.worker.Worker;
import dev.cairn.storage.Storage;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.db.Transactions;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.ObjectStoreErrors;
import dev.cairn.storage.graph.StorageException;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.users.UserStore;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.S3Location;

/**
 * The engine of one Cairn installation, wired: database, object store, plugins, broker, and
 * the transports to computers with what they keep between uses (SSH connections, local
 * shells). Launch with {@link #launcher()}, control with {@link #control()}, and run workers
 * with {@link #startWorker}. Without a broker it can still {@code run} processes in-process.
 * {@link #close} releases all of it, so an engine may be closed and another opened in the same
 * JVM.
 */
public final class Engine implements AutoCloseable {

    /**
     * @param amqpUri     the broker; null for an engine that only runs in-process
     * @param prefix      names this installation's queue and exchange on the broker
     * @param objectStore the object store folder for node files; null when no node has files or they are in a bucket
     * @param objectBucket the object store in an S3 bucket instead of a folder; null for a folder
     * @param broker      how to talk to the broker (heartbeat, …); null for the defaults
     */
    public record Config(
            DatabaseConfig database,
            String amqpUri,
            String prefix,
            Path objectStore,
            PluginRegistry plugins,
            CachingPolicy caching,
            S3Location objectBucket,
            BrokerOptions broker) {
        public Config {
            Objects.requireNonNull(database, "database");
            Objects.requireNonNull(plugins, "plugins");
            prefix = prefix == null ? "cairn" : prefix;
            caching = caching == null ? CachingPolicy.OFF : caching;
            broker = broker == null ? BrokerOptions.defaults() : broker;
        }

        /** With the object store in a folder. */
        public Config(
                DatabaseConfig database,
                String amqpUri,
                String prefix,
                Path objectStore,
                PluginRegistry plugins,
                CachingPolicy caching) {
            this(database, amqpUri, prefix, objectStore, plugins, caching, null, null);
        }

        /** Where the object store is, for messages. */
        String objectStoreLocation() {
            return objectBucket != null ? objectBucket.toString() : String.valueOf(objectStore);
        }

        /** Without caching (no process type looks for cached results). */
        public Config(
                DatabaseConfig database, String amqpUri, String prefix, Path objectStore, PluginRegistry plugins) {
            this(database, amqpUri, prefix, objectStore, plugins, CachingPolicy.OFF);
        }
    }

    /** The user new nodes belong to when nobody else is named. */
    static final String ENGINE_USER = "engine@localhost";

    private final Database database;
    private final Container container;
    private final GraphStore graph;
    private final Storage storage;
    private final EventLog eventLog;
    private final PluginRegistry plugins;
    private final ProcessStates states = new ProcessStates();
    private final TransportPool transports;
    private final ComputerAccess computerAccess;
    private final StepExecutor executor;
    private final BrokerConnection broker;
    private final Broadcasts broadcasts;
    private final QueueTaskSink sink;
    private final Launcher launcher;
    private final ProcessControl control;
    private final EngineMetrics metrics;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Engine(Config config) {
        this.database = Database.open(config.database());
        this.transports = new TransportPool();
        try {
            this.computerAccess = new ComputerAccess(transports, database);
            this.container = config.objectBucket() != null
                    ? Container.open(config.objectBucket())
                    : config.objectStore() == null ? null : Container.open(config.objectStore());
            this.graph = new GraphStore(database, container, defaultUser(database));
            this.storage = new Storage(database, graph);
            this.eventLog = new EventLog(database);
            this.plugins = config.plugins();
            LongAdder cacheHits = new LongAdder();
            this.executor =
                    new StepExecutor(database, graph, plugins, config.caching(), states, computerAccess, cacheHits);
            this.broker = config.amqpUri() == null
                    ? null
                    : BrokerConnection.open(
                            config.amqpUri(),
                            config.prefix(),
                            "cairn-" + ProcessHandle.current().pid(),
                            config.broker().heartbeat(),
                            config.broker().taskQueue() == BrokerOptions.TaskQueue.QUORUM,
                            config.broker().addresses());
            this.broadcasts = broker == null ? null : new Broadcasts(broker);
            this.sink = broker == null ? null : new QueueTaskSink(new TaskPublisher(broker));
            this.launcher = new Launcher(database, graph, executor, sink, computerAccess);
            this.control = new ProcessControl(database, graph, states, sink, broadcasts, computerAccess);
            this.metrics = new EngineMetrics(database, broker, cacheHits);
        } catch (IOException e) {
            transports.close();
            database.close();
            throw ObjectStoreErrors.translate(e, "opening the object store at " + config.objectStoreLocation());
        } catch (RuntimeException e) {
            transports.close();
            database.close();
            throw e;
        }
    }

    /**
     * Connects to the broker at {@code amqpUri} once, as a server does at start-up before it opens the engine; to
     * one of {@code addresses} (a cluster's nodes, {@link BrokerOptions#addresses()}) when there are some.
     *
     * @throws dev.cairn.storage.errors.InvalidInputException when the URI is not an AMQP URI, or the broker refused its
     *     user name, password or virtual host: waiting will not change that
     * @throws IOException when the broker did not answer; it may yet
     * @throws TimeoutException when it did not answer within {@code timeout}
     */
    public static void probeBroker(String amqpUri, List<String> addresses, Duration timeout)
            throws IOException, TimeoutException {
        BrokerProbe.connectOnce(amqpUri, addresses, timeout);
    }

    public static Engine open(Config config) {
        return new Engine(config);
    }

    private static long defaultUser(Database database) {
        UserStore users = new UserStore(database);
        return users.defaultUser()
                .orElseGet(() -> {
                    try {
                        users.create(ENGINE_USER, "Cairn", "Engine", "");
                    } catch (ConflictException raced) {
                        // another JVM created it first
                    }
                    users.setDefault(ENGINE_USER);
                    return users.defaultUser().orElseThrow();
                })
                .id();
    }

    public Database database() {
        return database;
    }

    public GraphStore graph() {
        return graph;
    }

    /**
     * The installation's stores, queries and reads, for a server: what it needs of the database
     * without a connection of its own.
     */
    public Storage storage() {
        return storage;
    }

    public PluginRegistry plugins() {
        return plugins;
    }

    public Launcher launcher() {
        return launcher;
    }

    public ProcessControl control() {
        return control;
    }

    /** The state changes the engine stored, for watchers that replay them or fill the gaps between broadcasts. */
    public EventLog eventLog() {
        return eventLog;
    }

    /** The engine's numbers for a monitoring system: queue depth, outbox, processes by state, cache hits, steps. */
    public EngineMetrics metrics() {
        return metrics;
    }

    /**
     * Listens to the state changes {@code filter} names as workers and controls commit them
     * (a server's event stream, a watch); needs a broker. Broadcasts are not durable: a
     * subscriber sees what is sent while it listens, and fills gaps from the database.
     */
    public Subscription subscribe(EventFilter filter, Consumer<StateChanged> listener) {
        requireBroker();
        return broadcasts.subscribe(filter, listener);
    }

    /**
     * Tests a stored computer as {@code verdi computer test} does, with this engine's transports
     * (see {@link ComputerCheck}): a computer that is down gives failed checks, not an exception.
     */
    public ComputerTestReport testComputer(Computer computer) {
        return new ComputerCheck(computerAccess).run(computer);
    }

    /**
     * The absolute path of a program on a stored computer, as a shell job's code runs it (see
     * {@link ExecutableLookup}): a program the computer lacks is an {@code InvalidInputException}.
     */
    public String locateExecutable(Computer computer, String program) {
        return new ExecutableLookup(computerAccess).locate(computer, program);
    }

    /**
     * Removes calculation jobs' working folders from a stored computer, through one connection (see
     * {@link WorkdirRemoval}): a computer that is down gives failed outcomes, not an exception.
     */
    public List<WorkdirRemoval.Outcome> removeWorkdirs(Computer computer, List<String> paths) {
        return new WorkdirRemoval(computerAccess).remove(computer, paths);
    }

    /** How often this engine made each move of the process state table, since it opened. */
    public Map<ProcessState.Transition, Long> transitionCounts() {
        return states.counts().snapshot();
    }

    /**
     * Sends again the task of every live process that is due and has none in the outbox; returns
     * how many. For a broker that lost its queues (one that keeps them in memory, restarted):
     * duplicates are harmless, a task for a step already run is skipped.
     */
    public int resendDueTasks() {
        requireBroker();
        try {
            List<Task> due = Transactions.run(database, c -> ProcessTable.claimDue(c, Duration.ZERO));
            sink.send(due);
            return due.size();
        } catch (SQLException e) {
            throw new StorageException("finding the processes that are due", e);
        }
    }

    /** Starts a worker in this JVM; close it to stop it. */
    public Worker startWorker(Worker.Settings settings) {
        Worker worker = new Worker(database, executor, requireBroker(), settings, computerAccess, metrics::stepEnded);
        worker.start();
        return worker;
    }

    private BrokerConnection requireBroker() {
        if (broker == null) {
            throw new IllegalStateException("this engine has no broker (no AMQP URI was configured)");
        }
        return broker;
    }

    /**
     * Closes the broker connection, the transports (kept SSH connections closed, kept local
     * shells ended), the database and the object store. Stop this engine's workers first.
     * Closing again does nothing.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (broker != null) {
            broker.close();
        }
        transports.close();
        database.close();
        if (container != null) {
            try {
                container.close();
            } catch (IOException | RuntimeException ignored) {
                // nothing was pending
            }
        }
    }
}
