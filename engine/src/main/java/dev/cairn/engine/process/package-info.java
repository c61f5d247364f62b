/**
 * The plugin author's API: what a process type is and how it runs. A plugin declares process types
 * ({@link ProcessDefinition}): calcfunctions and workfunctions ({@link CalcFunction},
 * {@link WorkFunction}, or annotated methods with {@link Function}), work chains ({@link WorkChain}
 * with an {@link Outline}) and calculation jobs ({@link CalcJobDefinition}), each with a
 * {@link ProcessSpec} of typed ports and exit codes.
 *
 * <p>It depends on the graph's node types, the error families and the {@code @Internal} marker
 * only: no internal package, worker, launcher, control or events (an architecture test holds it
 * so), so what plugins compile against stays small and stable. Every public member is documented,
 * which {@code PluginApiDocumentedTest} checks.
 */
package dev.cairn.engine.process;
