package dev.cairn.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

import dev.cairn.engine.broker.Broadcasts;
import dev.cairn.engine.broker.BrokerConnection;
import dev.cairn.engine.broker.TaskPublisher;
import dev.cairn.engine.caching.CachingPolicy;
import dev.cairn.engine.control.ProcessControl;
import dev.cairn.engine.launch.Launcher;
import dev.cairn.engine.launch.QueueTaskSink;
import dev.cairn.engine.plugin.PluginRegistry;
import dev.cairn.engine.runtime.StepExecutor;
import dev.cairn.engine.worker.Worker;
import dev.cairn.errors.ConflictException;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.ObjectStoreErrors;
import dev.cairn.storage.graph.users.UserStore;
import dev.cairn.storage.objects.Container;

/**
 * The engine of one Cairn installation, wired: database, object store, plugins, broker.
 * Launch with {@link #launcher()}, control with {@link #control()}, and run workers with
 * {@link #startWorker}. Without a broker it can still {@code run} processes in-process.
 */
public final class Engine implements AutoCloseable {

    /**
     * @param amqpUri     the broker; null for an engine that only runs in-process
     * @param prefix      names this installation's queue and exchange on the broker
     * @param objectStore the object store folder for node files; null when no node has files
     */
    public record Config(
            DatabaseConfig database,
            String amqpUri,
            String prefix,
            Path objectStore,
            PluginRegistry plugins,
            CachingPolicy caching) {
        public Config {
            Objects.requireNonNull(database, "database");
            Objects.requireNonNull(plugins, "plugins");
            prefix = prefix == null ? "cairn" : prefix;
            caching = caching == null ? CachingPolicy.OFF : caching;
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
    private final PluginRegistry plugins;
    private final StepExecutor executor;
    private final BrokerConnection broker;
    private final Launcher launcher;
    private final ProcessControl control;

    private Engine(Config config) {
        this.database = Database.open(config.database());
        try {
            this.container = config.objectStore() == null ? null : Container.open(config.objectStore());
            this.graph = new GraphStore(database, container, defaultUser(database));
            this.plugins = config.plugins();
            this.executor = new StepExecutor(database, graph, plugins, config.caching());
            this.broker = config.amqpUri() == null
                    ? null
                    : BrokerConnection.open(
                            config.amqpUri(),
                            config.prefix(),
                            "cairn-" + ProcessHandle.current().pid());
            QueueTaskSink sink = broker == null ? null : new QueueTaskSink(new TaskPublisher(broker));
            this.launcher = new Launcher(database, graph, executor, sink);
            this.control = new ProcessControl(database, graph, sink, broker == null ? null : new Broadcasts(broker));
        } catch (IOException e) {
            database.close();
            throw ObjectStoreErrors.translate(e, "opening the object store at " + config.objectStore());
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
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

    public PluginRegistry plugins() {
        return plugins;
    }

    public Launcher launcher() {
        return launcher;
    }

    public ProcessControl control() {
        return control;
    }

    /** State changes of processes as they commit ("state.<pid>.<state>"); needs a broker. */
    public Broadcasts broadcasts() {
        return new Broadcasts(requireBroker());
    }

    /** Starts a worker in this JVM; close it to stop it. */
    public Worker startWorker(Worker.Settings settings) {
        Worker worker = new Worker(database, executor, requireBroker(), settings);
        worker.start();
        return worker;
    }

    private BrokerConnection requireBroker() {
        if (broker == null) {
            throw new IllegalStateException("this engine has no broker (no AMQP URI was configured)");
        }
        return broker;
    }

    @Override
    public void close() {
        if (broker != null) {
            broker.close();
        }
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
