package dev.cairn.engine.internal.state;

/** "Run process {@code processId} from step {@code step}": what a task message says. */
public record Task(long processId, int step) {}
