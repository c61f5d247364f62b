package dev.cairn.engine.testing;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import dev.cairn.engine.Engine;
import dev.cairn.engine.caching.CachingPolicy;
import dev.cairn.engine.plugin.PluginRegistry;
import dev.cairn.engine.worker.OutboxRelay;
import dev.cairn.engine.worker.Worker;
import dev.cairn.storage.db.DatabaseConfig;

/**
 * Runs one worker until it is told to stop (SIGTERM or SIGINT: running steps finish, the
 * rest of its tasks go back to the queue). Plugins are the jars on the class path.
 * <pre>
 * java -cp cairn-engine.jar:plugins/* dev.cairn.engine.worker.WorkerMain \
 *     --db-url jdbc:postgresql://host/cairn?user=..&amp;password=.. --amqp-uri amqp://user:pw@host/vhost \
 *     [--prefix cairn] [--slots 4] [--store /path/to/object-store] [--caching off|all|PATTERNS]
 * </pre>
 * Each option may come from the environment instead: CAIRN_DB_URL, CAIRN_AMQP_URI,
 * CAIRN_PREFIX, CAIRN_WORKER_SLOTS, CAIRN_OBJECT_STORE, CAIRN_CACHING.
 */
public final class WorkerMain {

    private WorkerMain() {}

    public static void main(String[] args) throws InterruptedException {
        Map<String, String> options = parse(args);
        String dbUrl = option(options, "db-url", "CAIRN_DB_URL", null);
        String amqpUri = option(options, "amqp-uri", "CAIRN_AMQP_URI", null);
        if (dbUrl == null || amqpUri == null) {
            System.err.println("usage: WorkerMain --db-url JDBC_URL --amqp-uri AMQP_URI [--prefix P] [--slots N]"
                    + " [--store PATH] (or CAIRN_DB_URL, CAIRN_AMQP_URI, ...)");
            System.exit(2);
        }
        int slots = Integer.parseInt(option(options, "slots", "CAIRN_WORKER_SLOTS", "4"));
        String store = option(options, "store", "CAIRN_OBJECT_STORE", null);
        Engine.Config config = new Engine.Config(
                DatabaseConfig.of(dbUrl).withPoolSize(slots + 2),
                amqpUri,
                option(options, "prefix", "CAIRN_PREFIX", "cairn"),
                store == null ? null : Path.of(store),
                PluginRegistry.load(WorkerMain.class.getClassLoader()),
                CachingPolicy.parse(option(options, "caching", "CAIRN_CACHING", "off")));
        Engine engine = Engine.open(config);
        Worker worker =
                engine.startWorker(new Worker.Settings(slots, Duration.ofSeconds(30), OutboxRelay.Settings.defaults()));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            worker.close();
                            engine.close();
                            // java.util.logging closes its handlers in a shutdown hook of its own, so say it here
                            System.err.println("cairn worker stopped after " + worker.stepsRun() + " steps");
                            stopped.countDown();
                        },
                        "cairn-shutdown"));
        System.out.println("cairn worker ready: " + slots + " slots, "
                + engine.plugins().all().size() + " process types");
        System.out.flush();
        stopped.await();
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --option value pairs, got '" + args[i] + "'");
            }
            options.put(args[i].substring(2), args[++i]);
        }
        return options;
    }

    private static String option(Map<String, String> options, String name, String variable, String fallback) {
        String v = options.get(name);
        if (v == null) {
            v = System.getenv(variable);
        }
        return v == null || v.isBlank() ? fallback : v;
    }
}
