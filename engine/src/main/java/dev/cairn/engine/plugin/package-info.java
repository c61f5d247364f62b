/**
 * How the engine finds plugins: a plugin jar implements {@link CairnPlugin} and lists it in
 * {@code META-INF/services}; {@link PluginRegistry} loads them with {@link java.util.ServiceLoader}
 * and knows every process type by entry point, refusing one that two plugins provide.
 *
 * <p>It depends on the plugin API ({@code engine.process}) and the error families only. Plugin
 * authors implement {@code CairnPlugin}; the engine and its runtime look process types up in the
 * registry.
 */
package dev.cairn.engine.plugin;
