package dev.cairn.engine.process;

import dev.cairn.storage.graph.ProcessNode;

/**
 * A process a work chain submitted in this step; give it to {@code toContext} to wait for it.
 * Made by {@link WorkChain#submit}, not by plugins.
 *
 * @param node       the child's process node, stored when the step commits
 * @param definition the child's process type
 * @param useCache   the launch's caching override ({@link Inputs#useCache}); null when the policy decides
 */
public record ChildProcess(ProcessNode node, ProcessDefinition definition, Boolean useCache) {}
