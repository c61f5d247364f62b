package dev.cairn.engine.internal.state;

import java.util.Map;

import dev.cairn.engine.process.ProcessState;

/** A process as the engine keeps it, beside its node: what runs it next and what it waits for. */
public record ProcessRow(
        long nodeId,
        String entryPoint,
        Long parentId,
        ProcessState state,
        int step,
        boolean runnable,
        boolean paused,
        boolean awaited,
        int awaiting,
        Map<String, Object> checkpoint,
        Boolean useCache) {}
