package dev.cairn.engine.internal.state;

import java.util.List;

/** Where committed tasks go: the broker's task queue, or this JVM's own queue for {@code run}. */
@FunctionalInterface
public interface TaskSink {

    /** Sends the tasks; throws when they may not have arrived (their outbox rows then stay for the relay). */
    void send(List<Task> tasks);
}
