package dev.cairn.api.ops;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import dev.cairn.engine.plugin.CairnPlugin;

/**
 * Writes the plugin jar of {@link SlowSteps} into a server's plugin folder: its service entry and its
 * class, so that a server in another JVM, whose class path lacks the tests, loads it too.
 */
final class PluginJar {

    private PluginJar() {}

    static Path write(Path pluginDir) throws IOException {
        Files.createDirectories(pluginDir);
        Path jar = pluginDir.resolve("ops-test.jar");
        try (OutputStream file = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(file)) {
            out.putNextEntry(new JarEntry("META-INF/services/" + CairnPlugin.class.getName()));
            out.write((SlowSteps.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
            String classFile = SlowSteps.class.getName().replace('.', '/') + ".class";
            out.putNextEntry(new JarEntry(classFile));
            try (InputStream in = SlowSteps.class.getClassLoader().getResourceAsStream(classFile)) {
                in.transferTo(out);
            }
            out.closeEntry();
        }
        return jar;
    }
}
