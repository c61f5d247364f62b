package dev.cairn.api.config;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import dev.cairn.api.embedded.EmbeddedBroker;
import dev.cairn.api.embedded.EmbeddedDatabase;
import dev.cairn.api.embedded.ServicesFile;
import dev.cairn.storage.db.DatabaseConfig;

/**
 * Where the database and the broker are: configured ones, or embedded ones this server started
 * (and stops when it closes, after the engine). While embedded ones run, {@link ServicesFile}
 * tells the workers of this host how to reach them.
 */
public final class Services implements AutoCloseable {

    private final DatabaseConfig database;
    private final String amqpUri;
    private final EmbeddedDatabase embeddedDatabase;
    private final EmbeddedBroker embeddedBroker;
    private final ServicesFile published;

    private Services(
            DatabaseConfig database,
            String amqpUri,
            EmbeddedDatabase embeddedDatabase,
            EmbeddedBroker embeddedBroker,
            ServicesFile published) {
        this.database = database;
        this.amqpUri = amqpUri;
        this.embeddedDatabase = embeddedDatabase;
        this.embeddedBroker = embeddedBroker;
        this.published = published;
    }

    /**
     * Uses the configured services, starting embedded ones for what is not configured. Both embedded
     * ones start at once: PostgreSQL in processes of its own (initdb on the first start), the broker in
     * this JVM. Configured ones are waited for until they answer ({@link ServiceWait}); a folder this server
     * may not write, or a service that refuses it, is a {@link StartupProblem}.
     */
    public static Services start(CairnProperties properties) {
        WritableFolders.require(properties);
        CairnProperties.Database db = properties.database();
        if (!db.embedded()) {
            ServiceWait.forDatabase(db);
        }
        if (!properties.broker().embedded()) {
            ServiceWait.forBroker(properties.broker().uri(), properties.broker().addresses());
        }
        CompletableFuture<EmbeddedDatabase> embeddedDatabase = db.embedded()
                ? CompletableFuture.supplyAsync(
                        () -> EmbeddedDatabase.start(properties.dataDir().resolve("postgres")),
                        task -> Thread.ofPlatform()
                                .name("cairn-embedded-postgres")
                                .start(task))
                : CompletableFuture.completedFuture(null);
        EmbeddedBroker embeddedBroker = null;
        try {
            String amqp;
            if (properties.broker().embedded()) {
                embeddedBroker = EmbeddedBroker.start(properties.dataDir().resolve("broker"));
                amqp = embeddedBroker.amqpUri();
            } else {
                amqp = properties.broker().uri();
            }
            EmbeddedDatabase database = await(embeddedDatabase);
            String url = database != null ? database.jdbcUrl() : withCredentials(db.url(), db.user(), db.password());
            // written once both are up: a worker that reads it finds services that answer
            ServicesFile published = database != null || embeddedBroker != null
                    ? ServicesFile.write(
                            properties.dataDir(), database != null ? url : null, embeddedBroker != null ? amqp : null)
                    : null;
            return new Services(
                    DatabaseConfig.of(url)
                            .withPoolSize(db.poolSize())
                            .withConnectTimeout(db.connectTimeout())
                            .withDeadConnectionTimeout(db.deadConnectionTimeout())
                            .withRandomPageCost(db.plannerRandomPageCost()),
                    amqp,
                    database,
                    embeddedBroker,
                    published);
        } catch (RuntimeException e) {
            if (embeddedBroker != null) {
                embeddedBroker.close();
            }
            // a database that started while the broker failed is stopped too
            try {
                EmbeddedDatabase started = embeddedDatabase.join();
                if (started != null) {
                    started.close();
                }
            } catch (CompletionException alsoFailed) {
                if (alsoFailed.getCause() != e) {
                    e.addSuppressed(alsoFailed.getCause());
                }
            }
            throw e;
        }
    }

    private static EmbeddedDatabase await(CompletableFuture<EmbeddedDatabase> database) {
        try {
            return database.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** A JDBC URL with the user and password as parameters, unless it names them itself. */
    static String withCredentials(String url, String user, String password) {
        StringBuilder b = new StringBuilder(url);
        char sep = url.contains("?") ? '&' : '?';
        if (user != null && !user.isBlank() && !url.contains("user=")) {
            b.append(sep).append("user=").append(user);
            sep = '&';
        }
        if (password != null && !password.isBlank() && !url.contains("password=")) {
            b.append(sep).append("password=").append(password);
        }
        return b.toString();
    }

    public DatabaseConfig database() {
        return database;
    }

    public String amqpUri() {
        return amqpUri;
    }

    /** True when this server runs its own broker, whose queues do not outlive it. */
    public boolean hasEmbeddedBroker() {
        return embeddedBroker != null;
    }

    public boolean hasEmbeddedDatabase() {
        return embeddedDatabase != null;
    }

    @Override
    public void close() {
        if (published != null) {
            published.delete(); // first: no worker starts on services about to stop
        }
        if (embeddedBroker != null) {
            embeddedBroker.close();
        }
        if (embeddedDatabase != null) {
            embeddedDatabase.close();
        }
    }
}
