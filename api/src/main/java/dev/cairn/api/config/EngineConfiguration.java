package dev.cairn.api.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.cairn.engine.Engine;
import dev.cairn.engine.caching.CachingPolicy;
import dev.cairn.engine.plugin.PluginRegistry;
import dev.cairn.storage.graph.ObjectStoreErrors;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;

/**
 * Builds the engine from the settings: the services (configured, or embedded ones started here),
 * the plugins, the object store (made on the first start) and the caching policy. Spring closes
 * the engine before the services it runs on.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(CairnProperties.class)
class EngineConfiguration {

    @Bean(destroyMethod = "close")
    Services services(CairnProperties properties) {
        return Services.start(properties);
    }

    @Bean
    PluginRegistry plugins(CairnProperties properties) {
        return Plugins.load(properties.pluginDir());
    }

    @Bean(destroyMethod = "close")
    Engine engine(CairnProperties properties, Services services, PluginRegistry plugins) {
        Path store = properties.storePath();
        initIfEmpty(store);
        return Engine.open(new Engine.Config(
                services.database(),
                services.amqpUri(),
                properties.broker().prefix(),
                store,
                plugins,
                CachingPolicy.parse(properties.caching())));
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
