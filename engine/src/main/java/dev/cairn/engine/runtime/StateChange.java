package dev.cairn.engine.runtime;

import dev.cairn.engine.process.ProcessState;

/** A process moved from one state to another; broadcast for watchers once committed. */
public record StateChange(long processId, String entryPoint, ProcessState from, ProcessState to, Integer exitStatus) {
}
