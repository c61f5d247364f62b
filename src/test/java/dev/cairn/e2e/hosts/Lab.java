package dev.cairn.e2e.hosts;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.cairn.e2e.hosts.work.HostsPlugin;
import dev.cairn.e2e.hosts.work.PluginJar;
import dev.cairn.engine.BrokerOptions;
import dev.cairn.engine.Engine;
import dev.cairn.engine.caching.CachingPolicy;
import dev.cairn.engine.plugin.PluginRegistry;
import dev.cairn.examples.ExamplesPlugin;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.computers.ComputerSpec;
import dev.cairn.storage.graph.computers.ComputerStore;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.testing.TestDatabase;

/**
 * A Cairn installation on hosts of its own, for one test class: a {@link Network} with a host
 * {@code services} (PostgreSQL on its first address, RabbitMQ on a second, and the object store's
 * folder, which the other hosts reach through the shared file system as over NFS), optionally a
 * host {@code cluster} (an SSH login node, the computer calculation jobs run on), optionally a
 * RabbitMQ cluster on hosts {@code mq1} … {@code mq3} that the workers use instead of the single
 * node ({@link RabbitCluster}), optionally PostgreSQL as a pg_auto_failover formation on hosts
 * {@code monitor}, {@code pg1}, {@code pg2} ({@link AutoFailover}), and worker hosts {@code worker1} … {@code workerN}; the class's own database, and an engine in the tests'
 * JVM (reaching the services through {@link Relay}s) to launch processes and look at the graph.
 * {@snippet :
 * @RegisterExtension static final Lab lab = Lab.withWorkerHosts(3).loginNode().build();
 *
 * @Test void ...() {
 *     lab.startWorkers(lab.workerHosts());
 *     lab.engine().launcher().submitAll(...);
 * }
 * }
 * Everything it started ends with the class: the hosts are killed and removed.
 */
public final class Lab implements BeforeAllCallback, AfterAllCallback {

    /** The nodes of a {@link Builder#brokerCluster()}: the fewest that outlive the loss of one. */
    static final int CLUSTER_NODES = 3;

    private final int workerHostCount;
    private final boolean withLoginNode;
    private final boolean withBrokerCluster;
    private final boolean withPostgresStandby;
    private final boolean withAutoFailover;
    private final Map<String, String> postgresSettings;
    private final Map<String, String> workerSettings;
    private final List<WorkerNode> workers = new CopyOnWriteArrayList<>();

    private Network network;
    private Host services;
    private Host cluster;
    private final List<Host> workerHosts = new ArrayList<>();
    private PostgresNode postgres;
    private PostgresNode standby;
    private AutoFailover autoFailover;
    private RabbitNode rabbit;
    private RabbitCluster brokerCluster;
    private String brokerAddress;
    private LoginNode login;
    private TestDatabase db;
    private String prefix;
    private Engine engine;
    private WorkerNode.Settings settings;

    private Lab(Builder b) {
        this.workerHostCount = b.workerHosts;
        this.withLoginNode = b.loginNode;
        this.withBrokerCluster = b.brokerCluster;
        this.withPostgresStandby = b.postgresStandby;
        this.withAutoFailover = b.autoFailover;
        this.postgresSettings = Map.copyOf(b.postgres);
        this.workerSettings = Map.copyOf(b.worker);
    }

    /** A lab with {@code n} worker hosts. */
    public static Builder withWorkerHosts(int n) {
        return new Builder(n);
    }

    /** What a lab is made of. */
    public static final class Builder {
        private final int workerHosts;
        private boolean loginNode;
        private boolean brokerCluster;
        private boolean postgresStandby;
        private boolean autoFailover;
        private final Map<String, String> postgres = new LinkedHashMap<>();
        private final Map<String, String> worker = new LinkedHashMap<>();

        private Builder(int workerHosts) {
            if (workerHosts < 1 || workerHosts > 30) {
                throw new IllegalArgumentException("a lab has 1 to 30 worker hosts, not " + workerHosts);
            }
            this.workerHosts = workerHosts;
        }

        /** A host {@code cluster} with an SSH server, the computer the calculation jobs run on. */
        public Builder loginNode() {
            loginNode = true;
            return this;
        }

        /**
         * A RabbitMQ cluster of {@value #CLUSTER_NODES} nodes on hosts {@code mq1} … of their own
         * ({@link RabbitCluster}), which the workers and the tests' engine use with a quorum task
         * queue, given every node's address; the services host's single node stays up beside it,
         * unused but by a test that compares the two.
         */
        public Builder brokerCluster() {
            brokerCluster = true;
            return this;
        }

        /**
         * A synchronous streaming standby of PostgreSQL on a host {@code pg2} of its own; the
         * workers get a multi-host URL of both that connects to whichever is the primary.
         */
        public Builder postgresStandby() {
            postgresStandby = true;
            return this;
        }

        /**
         * The class's database on a pg_auto_failover formation ({@link AutoFailover}: a monitor and
         * two data nodes on hosts of their own) instead of the services host's PostgreSQL, which still
         * runs, unused; the workers get the multi-host URL of both data nodes.
         */
        public Builder autoFailover() {
            autoFailover = true;
            return this;
        }

        /** A setting of the PostgreSQL server ({@code postgres -c key=value}). */
        public Builder postgres(String key, String value) {
            postgres.put(key, value);
            return this;
        }

        /** A setting of every worker ({@code --key=value}). */
        public Builder worker(String key, String value) {
            worker.put(key, value);
            return this;
        }

        public Lab build() {
            return new Lab(this);
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        network = Network.create();
        try {
            services = network.host("services");
            brokerAddress = services.addAddress();
            CompletableFuture<PostgresNode> pg = CompletableFuture.supplyAsync(
                    () -> PostgresNode.start(services, services.address(), postgresSettings));
            CompletableFuture<RabbitNode> mq = CompletableFuture.supplyAsync(
                    () -> RabbitNode.start(services, brokerAddress, "cairn-hosts-" + network.tag(), Map.of()));
            CompletableFuture<RabbitCluster> mqCluster = withBrokerCluster
                    ? CompletableFuture.supplyAsync(
                            () -> RabbitCluster.start(network, CLUSTER_NODES, "cairn-hosts-" + network.tag()))
                    : CompletableFuture.completedFuture(null);
            if (withLoginNode) {
                cluster = network.host("cluster");
                login = LoginNode.start(cluster);
            }
            for (int i = 1; i <= workerHostCount; i++) {
                workerHosts.add(network.host("worker" + i));
            }
            postgres = pg.join();
            if (withAutoFailover) {
                autoFailover = AutoFailover.start(network);
            }
            if (withPostgresStandby) {
                Host pg2 = network.host("pg2");
                standby = PostgresNode.startStandby(pg2, pg2.address(), postgres, postgresSettings);
            }
            rabbit = mq.join();
            brokerCluster = mqCluster.join();

            db = new TestDatabase(autoFailover == null ? postgres.server() : autoFailover.server());
            db.beforeAll(context);
            prefix = "cairn_" + db.name().substring(db.name().length() - 10);
            Path store = objectStore();
            Container.init(store, ContainerConfig.defaults()).close();
            engine = brokerCluster == null
                    ? engine(rabbit.relayedAmqpUri(), BrokerOptions.defaults())
                    : engine(
                            brokerCluster.nodes().getFirst().relayedAmqpUri(),
                            new BrokerOptions(
                                    BrokerOptions.DEFAULT_HEARTBEAT,
                                    BrokerOptions.TaskQueue.QUORUM,
                                    brokerCluster.relayedAddresses()));
            Map<String, String> cairn = new LinkedHashMap<>();
            cairn.put("cairn.database.url", databaseUrl());
            cairn.put("cairn.database.pool-size", "8");
            if (brokerCluster == null) {
                cairn.put("cairn.broker.uri", rabbit.amqpUri());
            } else {
                cairn.put("cairn.broker.uri", brokerCluster.nodes().getFirst().amqpUri());
                cairn.put("cairn.broker.addresses", String.join(",", brokerCluster.addresses()));
                cairn.put("cairn.broker.task-queue", "quorum");
            }
            cairn.put("cairn.broker.prefix", prefix);
            cairn.put("cairn.store.path", store.toString());
            cairn.put(
                    "cairn.plugins.dir",
                    PluginJar.write(network.dir().resolve("plugins"))
                            .getParent()
                            .toString());
            cairn.putAll(workerSettings);
            ExtractedServerJar server =
                    ExtractedServerJar.prepare(Path.of(System.getProperty("cairn.e2e.logs", "target/e2e-logs"))
                            .resolveSibling("hosts-server"));
            List<String> jvm = List.of("-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
            settings = new WorkerNode.Settings(server.jar(), jvm, cairn);
            if (!server.hasCache()) {
                server.record(workerHosts.getFirst(), settings);
            }
            List<String> withCache = new ArrayList<>(jvm);
            withCache.addAll(server.cacheOptions());
            settings = settings.withJvmOptions(withCache);
        } catch (Exception | Error e) {
            afterAll(context);
            throw e;
        }
    }

    /** The class's database as the workers reach it: on the primary, or the multi-host URL of a standby's or a formation's. */
    private String databaseUrl() {
        if (autoFailover != null) {
            return autoFailover.jdbcUrl(db.name());
        }
        return standby == null ? postgres.jdbcUrl(db.name()) : postgres.jdbcUrl(db.name(), standby);
    }

    /**
     * An engine of the tests' JVM on the lab's database and object store, launching through the
     * broker at {@code relayedAmqpUri} (a relay's) with {@code broker}; the caller closes it.
     */
    public Engine engine(String relayedAmqpUri, BrokerOptions broker) {
        return Engine.open(new Engine.Config(
                DatabaseConfig.of(db.jdbcUrl()).withPoolSize(8),
                relayedAmqpUri,
                prefix,
                objectStore(),
                plugins(),
                CachingPolicy.OFF,
                null,
                broker));
    }

    /** The object store's folder, which every host reaches. */
    public Path objectStore() {
        return network.dir().resolve("objects");
    }

    /** The examples' processes and the hosts tests' own. */
    public static PluginRegistry plugins() {
        return PluginRegistry.of(List.of(new ExamplesPlugin(), new HostsPlugin()));
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        workers.forEach(WorkerNode::close);
        if (engine != null) {
            engine.close();
        }
        if (login != null) {
            login.close();
        }
        if (rabbit != null) {
            rabbit.close();
        }
        if (brokerCluster != null) {
            brokerCluster.close();
        }
        try {
            if (db != null) {
                db.afterAll(context);
            }
        } finally {
            if (postgres != null) {
                postgres.close();
            }
            if (standby != null) {
                standby.close();
            }
            if (autoFailover != null) {
                autoFailover.close();
            }
            if (network != null) {
                network.close();
            }
        }
    }

    /** Starts a worker on each of {@code hosts} at once (with the lab's settings) and waits until all are ready. */
    public List<WorkerNode> startWorkers(List<Host> hosts) {
        return startWorkers(hosts, settings);
    }

    /** Starts a worker on each of {@code hosts} with {@code with} and waits until all are ready. */
    public List<WorkerNode> startWorkers(List<Host> hosts, WorkerNode.Settings with) {
        List<WorkerNode> started = new ArrayList<>();
        for (Host host : hosts) {
            WorkerNode w = WorkerNode.start(host, "worker-" + host.name() + "-" + (workers.size() + 1), with);
            workers.add(w);
            started.add(w);
        }
        started.forEach(WorkerNode::awaitReady);
        return started;
    }

    /**
     * The computer {@code cluster} on the login node (SSH, the direct scheduler, work directories in
     * the network's folder) with {@code settings} beside the transport's, and bash on it as a code.
     * Its jobs record their runs ({@link LoginNode#jobRuns()}) before {@code prependText}.
     */
    public InstalledCode clusterComputer(Map<String, Object> settings, String prependText) {
        Map<String, Object> all =
                new HashMap<>(login().computerSettings(network.dir().resolve("cluster-work")));
        all.putAll(settings);
        all.put("prepend_text", login.recordJobRun() + "\n" + prependText);
        Computer computer = new ComputerStore(engine.database())
                .create(new ComputerSpec(
                        "cluster", cluster.address(), "the login node", "core.ssh", "core.direct", all));
        return engine.graph().store(new InstalledCode(computer.id(), "/bin/bash"));
    }

    /** The workers started so far (alive or not). */
    public List<WorkerNode> workers() {
        return List.copyOf(workers);
    }

    /** The workers on {@code host} still alive. */
    public List<WorkerNode> workersOn(Host host) {
        return workers.stream().filter(w -> w.host() == host && w.isAlive()).toList();
    }

    /** The end of every worker's log, for failure messages. */
    public String workerLogs() {
        return workers.stream()
                .map(w -> "=== " + w + (w.isAlive() ? "" : " (ended)")
                        + w.process().tail())
                .collect(Collectors.joining("\n"));
    }

    public WorkerNode.Settings workerSettings() {
        return settings;
    }

    public Network network() {
        return network;
    }

    public Host services() {
        return services;
    }

    /** The host of the login node ({@link Builder#loginNode()}). */
    public Host cluster() {
        if (cluster == null) {
            throw new IllegalStateException("this lab has no login node: build it with loginNode()");
        }
        return cluster;
    }

    public LoginNode login() {
        cluster();
        return login;
    }

    public List<Host> workerHosts() {
        return List.copyOf(workerHosts);
    }

    public PostgresNode postgres() {
        return postgres;
    }

    /** The standby of {@link Builder#postgresStandby()}. */
    public PostgresNode postgresStandby() {
        if (standby == null) {
            throw new IllegalStateException("this lab has no PostgreSQL standby: build it with postgresStandby()");
        }
        return standby;
    }

    /** The pg_auto_failover formation of {@link Builder#autoFailover()}. */
    public AutoFailover autoFailover() {
        if (autoFailover == null) {
            throw new IllegalStateException("this lab has no pg_auto_failover formation: build it with autoFailover()");
        }
        return autoFailover;
    }

    public RabbitNode rabbit() {
        return rabbit;
    }

    /** The RabbitMQ cluster ({@link Builder#brokerCluster()}) the workers use. */
    public RabbitCluster brokerCluster() {
        if (brokerCluster == null) {
            throw new IllegalStateException("this lab has no broker cluster: build it with brokerCluster()");
        }
        return brokerCluster;
    }

    /** The relays of the brokers the workers use, {@code 127.0.0.1:port}: the cluster's nodes', or the single one's. */
    public List<String> relayedBrokerAddresses() {
        return brokerCluster == null ? List.of(rabbit.relayedAddress()) : brokerCluster.relayedAddresses();
    }

    /** The hosts RabbitMQ runs on: the services host, and the cluster's. */
    public List<Host> brokerHosts() {
        List<Host> hosts = new ArrayList<>(List.of(services));
        if (brokerCluster != null) {
            hosts.addAll(brokerCluster.hosts());
        }
        return hosts;
    }

    /** The address RabbitMQ listens on (the services host's second one). */
    public String brokerAddress() {
        return brokerAddress;
    }

    /** The class's database, as the tests reach it. */
    public TestDatabase db() {
        return db;
    }

    /** The engine of the tests' JVM: it launches, and reads the graph; it runs nothing (no worker). */
    public Engine engine() {
        return engine;
    }

    public String prefix() {
        return prefix;
    }
}
