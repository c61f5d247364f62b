package dev.cairn.engine.process;

import dev.cairn.storage.graph.ProcessNode;

/** A process a work chain submitted in this step; give it to {@code toContext} to wait for it. */
public record ChildProcess(ProcessNode node, ProcessDefinition definition, Boolean useCache) {}
