package dev.cairn.engine.plugin;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

import dev.cairn.engine.process.ProcessDefinition;

/**
 * The process types known to this JVM, by entry-point name. The engine loads one from the
 * class path; a plugin author meets it in tests ({@link #of}) and in the message of an
 * {@link UnknownProcessTypeException}.
 */
public final class PluginRegistry {

    private final Map<String, ProcessDefinition> byEntryPoint;

    private PluginRegistry(Map<String, ProcessDefinition> byEntryPoint) {
        this.byEntryPoint = Collections.unmodifiableMap(byEntryPoint);
    }

    /** The plugins {@link ServiceLoader} finds on {@code loader}'s class path. */
    public static PluginRegistry load(ClassLoader loader) {
        List<CairnPlugin> plugins = new ArrayList<>();
        ServiceLoader.load(CairnPlugin.class, loader).forEach(plugins::add);
        return of(plugins);
    }

    /**
     * The process types of {@code plugins}. An entry point that two plugins provide is refused
     * with an {@code IllegalStateException} naming both.
     */
    public static PluginRegistry of(List<CairnPlugin> plugins) {
        Map<String, ProcessDefinition> defs = new TreeMap<>();
        Map<String, String> owners = new TreeMap<>();
        for (CairnPlugin plugin : plugins) {
            for (ProcessDefinition d : plugin.processes()) {
                String owner = owners.putIfAbsent(d.entryPoint(), plugin.name());
                if (owner != null) {
                    throw new IllegalStateException("entry point '" + d.entryPoint() + "' is provided by two plugins: "
                            + owner + " and " + plugin.name());
                }
                defs.put(d.entryPoint(), d);
            }
        }
        return new PluginRegistry(defs);
    }

    /** The definition of {@code entryPoint}; the error lists the known ones. */
    public ProcessDefinition get(String entryPoint) {
        ProcessDefinition d = byEntryPoint.get(entryPoint);
        if (d == null) {
            throw new UnknownProcessTypeException(entryPoint, byEntryPoint.keySet());
        }
        return d;
    }

    /** Every known process type, in the order of their entry points. */
    public Collection<ProcessDefinition> all() {
        return byEntryPoint.values();
    }
}
