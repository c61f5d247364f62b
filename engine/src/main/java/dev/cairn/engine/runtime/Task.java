package dev.cairn.engine.runtime;

/** "Run process {@code processId} from step {@code step}": what a task message says. */
public record Task(long processId, int step) {}
