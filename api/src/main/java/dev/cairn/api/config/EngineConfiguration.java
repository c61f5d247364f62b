package dev.cairn.api.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.postgresql.ds.PGSimpleDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import dev.cairn.engine.BrokerOptions;
import dev.cairn.engine.Engine;
import dev.cairn.engine.caching.CachingPolicy;
import dev.cairn.engine.plugin.PluginRegistry;
import dev.cairn.storage.Storage;
import dev.cairn.storage.backup.Manifest;
import dev.cairn.storage.backup.Restore;
import dev.cairn.storage.db.SchemaTooNewException;
import dev.cairn.storage.graph.ObjectStoreErrors;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.objects.NotAContainerException;
import dev.cairn.storage.objects.S3Location;

/**
 * Builds the engine from the settings: the services (configured, or embedded ones started here),
 * the plugins, the object store (made on the first start) and the caching policy. Spring closes
 * the engine before the services it runs on.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(CairnProperties.class)
class EngineConfiguration {

    /** The setting that makes this start a restore: the server restores the backup and exits. */
    public static final String RESTORE_FROM = "cairn.restore-from";

    private static final Logger LOG = LoggerFactory.getLogger(EngineConfiguration.class);

    @Bean(destroyMethod = "close")
    Services services(CairnProperties properties) {
        return Services.start(properties);
    }

    @Bean
    PluginRegistry plugins(CairnProperties properties) {
        return Plugins.load(properties.pluginDir());
    }

    @Bean(destroyMethod = "close")
    Engine engine(CairnProperties properties, Services services, PluginRegistry plugins, Environment environment) {
        Path store = properties.storePath();
        S3Location bucket = properties.storeBucket();
        String restoreFrom = environment.getProperty(RESTORE_FROM);
        if (restoreFrom != null && !restoreFrom.isBlank()) {
            restore(Path.of(restoreFrom), services, store, bucket);
        }
        if (bucket != null) {
            initIfEmpty(bucket);
        } else {
            initIfEmpty(store);
        }
        try {
            return Engine.open(new Engine.Config(
                    services.database(),
                    services.amqpUri(),
                    properties.broker().prefix(),
                    bucket == null ? store : null,
                    plugins,
                    CachingPolicy.parse(properties.caching()),
                    bucket,
                    new BrokerOptions(
                            properties.broker().heartbeat(),
                            BrokerOptions.TaskQueue.parse(properties.broker().taskQueue()),
                            properties.broker().addresses())));
        } catch (SchemaTooNewException e) {
            throw new StartupProblem(e.getMessage(), e);
        }
    }

    /** The engine's stores, queries and reads: what the server's services use of the database. */
    @Bean
    Storage storage(Engine engine) {
        return engine.storage();
    }

    /**
     * Restores a backup into this empty installation before the engine opens it (and migrates its schema
     * to the newest version). Needs database access no client has, so it runs in the server:
     * {@code cairn storage restore} starts the server with {@code --cairn.restore-from=SRC}, and
     * {@link dev.cairn.api.CairnApplication} exits once it is done. The objects go where the server keeps
     * them: into the bucket when one is set, else into the store's folder.
     */
    private static void restore(Path source, Services services, Path store, S3Location bucket) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(services.database().jdbcUrl());
        if (services.database().user() != null) {
            dataSource.setUser(services.database().user());
        }
        if (services.database().password() != null) {
            dataSource.setPassword(services.database().password());
        }
        LOG.info("restoring {} into this installation", source);
        Manifest manifest = bucket != null
                ? Restore.run(source, dataSource, bucket, step -> LOG.info("restore: {}", step))
                : Restore.run(source, dataSource, store, step -> LOG.info("restore: {}", step));
        LOG.info(
                "restored {} rows of schema version {}, backed up at {}",
                manifest.rows(),
                manifest.schemaVersion(),
                manifest.created());
    }

    /** A new installation's object store in a bucket: made when nothing is under its prefix yet. */
    private static void initIfEmpty(S3Location bucket) {
        try {
            try {
                Container.open(bucket).close();
            } catch (NotAContainerException missing) {
                Container.init(bucket, ContainerConfig.bucketDefaults()).close();
            }
        } catch (IOException e) {
            throw ObjectStoreErrors.translate(e, "making the object store at " + bucket);
        }
    }

    /** A new installation's object store: made when its folder is missing or empty. */
    private static void initIfEmpty(Path store) {
        try {
            if (Files.isDirectory(store)) {
                try (Stream<Path> entries = Files.list(store)) {
                    if (entries.findAny().isPresent()) {
                        return;
                    }
                }
            }
            Container.init(store, ContainerConfig.defaults()).close();
        } catch (IOException e) {
            throw ObjectStoreErrors.translate(e, "making the object store at " + store);
        }
    }
}
