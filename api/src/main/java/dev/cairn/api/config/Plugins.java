package dev.cairn.api.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import dev.cairn.engine.plugin.PluginRegistry;

/**
 * The process types this server knows: the plugin jars of the plugin directory, and those on its
 * own class path (the examples). API and worker roles load the same ones, so what the API
 * accepts a worker runs.
 */
final class Plugins {

    private Plugins() {}

    static PluginRegistry load(Path directory) {
        List<URL> jars = new ArrayList<>();
        if (Files.isDirectory(directory)) {
            try (Stream<Path> files = Files.list(directory)) {
                for (Path jar : files.filter(f -> f.toString().endsWith(".jar"))
                        .sorted()
                        .toList()) {
                    jars.add(url(jar));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("reading the plugin directory " + directory, e);
            }
        }
        ClassLoader parent = Plugins.class.getClassLoader();
        return PluginRegistry.load(jars.isEmpty() ? parent : new URLClassLoader(jars.toArray(URL[]::new), parent));
    }

    private static URL url(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException(jar + " has no URL", e);
        }
    }
}
