package dev.cairn.engine.plugin;

import java.util.List;

import dev.cairn.engine.process.ProcessDefinition;

/**
 * A plugin jar's entry: list its implementation in
 * {@code META-INF/services/dev.cairn.engine.plugin.CairnPlugin} and the engine finds it
 * with {@link java.util.ServiceLoader}.
 */
public interface CairnPlugin {

    /** A short name for messages ("examples"). */
    String name();

    /** The process types this plugin provides, each under its entry-point name. */
    List<ProcessDefinition> processes();
}
