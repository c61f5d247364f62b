package dev.cairn.engine.internal.broker;

import java.util.List;

import dev.cairn.engine.internal.state.Task;
import dev.cairn.engine.internal.state.TaskSink;

/** Tasks to the broker's task queue, confirmed. */
public final class QueueTaskSink implements TaskSink {

    private final TaskPublisher publisher;

    public QueueTaskSink(TaskPublisher publisher) {
        this.publisher = publisher;
    }

    @Override
    public void send(List<Task> tasks) {
        publisher.publish(tasks.stream()
                .map(t -> new TaskMessage(t.processId(), t.step()))
                .toList());
    }
}
