package dev.cairn.e2e.hosts.work;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import dev.cairn.engine.plugin.CairnPlugin;

/**
 * Writes {@link HostsPlugin} as a plugin jar (its service entry and its classes), for workers in
 * JVMs of their own whose class path is the server jar's.
 */
public final class PluginJar {

    private PluginJar() {}

    /** Writes {@code hosts-tests.jar} into {@code pluginDir}; returns its path. */
    public static Path write(Path pluginDir) {
        try {
            Files.createDirectories(pluginDir);
            Path jar = pluginDir.resolve("hosts-tests.jar");
            Path classes = classesDir();
            try (OutputStream file = Files.newOutputStream(jar);
                    JarOutputStream out = new JarOutputStream(file);
                    Stream<Path> own = Files.list(classes)) {
                out.putNextEntry(new JarEntry("META-INF/services/" + CairnPlugin.class.getName()));
                out.write((HostsPlugin.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
                String packagePath = HostsPlugin.class.getPackageName().replace('.', '/');
                for (Path classFile : own.filter(p -> p.toString().endsWith(".class"))
                        .filter(p -> !p.getFileName().toString().startsWith("PluginJar"))
                        .toList()) {
                    out.putNextEntry(new JarEntry(packagePath + "/" + classFile.getFileName()));
                    try (InputStream in = Files.newInputStream(classFile)) {
                        in.transferTo(out);
                    }
                    out.closeEntry();
                }
            }
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the hosts tests' plugin jar into " + pluginDir, e);
        }
    }

    /** The folder this package's class files were compiled into. */
    private static Path classesDir() {
        try {
            return Path.of(HostsPlugin.class.getResource("HostsPlugin.class").toURI())
                    .getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
