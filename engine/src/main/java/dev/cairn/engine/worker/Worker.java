package dev.cairn.engine.worker;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import dev.cairn.engine.events.ControlSignal;
import dev.cairn.engine.events.StateChanged;
import dev.cairn.engine.events.Subscription;
import dev.cairn.engine.internal.broker.Broadcasts;
import dev.cairn.engine.internal.broker.BrokerConnection;
import dev.cairn.engine.internal.broker.BrokerException;
import dev.cairn.engine.internal.broker.QueueTaskSink;
import dev.cairn.engine.internal.broker.TaskConsumer;
import dev.cairn.engine.internal.broker.TaskPublisher;
import dev.cairn.engine.internal.calcjob.ComputerAccess;
import dev.cairn.engine.internal.calcjob.JobPoller;
import dev.cairn.engine.internal.runtime.StepExecutor;
import dev.cairn.engine.internal.runtime.StepOutcome;
import dev.cairn.engine.internal.state.Task;
import dev.cairn.engine.metrics.StepTiming;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.StorageException;
import dev.cairn.storage.visibility.Internal;

/**
 * A daemon worker: takes up to {@code slots} tasks at a time from the broker and runs each
 * as one durable step. The order of a task's life: step committed, then its new tasks
 * published with confirms, then the task acknowledged. A waiting process holds no task and
 * no slot. Any number of workers on any number of hosts share the queue.
 * <p>
 * When the database fails, a step is retried with backoff while its task stays
 * unacknowledged; when the broker fails, committed tasks stay in the outbox for the
 * {@link OutboxRelay}; either way the worker carries on once they are back.
 */
public final class Worker implements AutoCloseable {

    private static final Logger LOG = System.getLogger(Worker.class.getName());
    /**
     * How often the worker offers to poll the schedulers; each computer's own minimum interval,
     * kept in the database for all workers, decides whether it is asked.
     */
    private static final long POLL_TICK_MS = 100;

    /**
     * @param slots         steps run at once (and tasks taken from the broker at once)
     * @param shutdownGrace how long {@link #close} lets running steps finish before handing their tasks back
     */
    public record Settings(int slots, Duration shutdownGrace, OutboxRelay.Settings relay) {
        public Settings {
            if (slots < 1) {
                throw new InvalidInputException("a worker needs at least one slot, got " + slots);
            }
        }

        public static Settings defaults(int slots) {
            return new Settings(slots, Duration.ofSeconds(30), OutboxRelay.Settings.defaults());
        }
    }

    private final StepExecutor executor;
    private final BrokerConnection broker;
    private final Settings settings;
    private final TaskPublisher publisher;
    private final QueueTaskSink sink;
    private final Broadcasts broadcasts;
    private final OutboxRelay relay;
    private final JobPoller jobPoller;
    private final ExecutorService steps;
    private final ScheduledExecutorService background;
    /** Its own thread: a poll over SSH of a slow cluster must not hold up the outbox relay. */
    private final ScheduledExecutorService poller;

    private final ConcurrentLinkedQueue<Long> published = new ConcurrentLinkedQueue<>();
    private final Map<Long, Thread> running = new ConcurrentHashMap<>();
    /** Processes a kill signal arrived for while their step ran here, or just before it began. */
    private final Set<Long> killSignalled = ConcurrentHashMap.newKeySet();

    private final RecentKills recentKills = new RecentKills();

    private final AtomicLong stepsRun = new AtomicLong();
    private final Consumer<StepTiming> onStep;
    private volatile boolean stopping;
    private TaskConsumer consumer;
    private Subscription controlSignals;

    /**
     * @param access the computers' transports, for polling the schedulers; the engine owns and closes them
     * @param onStep told of every task once the worker is done with it (acknowledged or handed back)
     */
    @Internal
    public Worker(
            Database database,
            StepExecutor executor,
            BrokerConnection broker,
            Settings settings,
            ComputerAccess access,
            Consumer<StepTiming> onStep) {
        this.onStep = onStep;
        this.executor = executor;
        this.broker = broker;
        this.settings = settings;
        this.publisher = new TaskPublisher(broker);
        this.sink = new QueueTaskSink(publisher);
        this.broadcasts = new Broadcasts(broker);
        this.relay = new OutboxRelay(database, sink, published, settings.relay());
        this.jobPoller = new JobPoller(database, executor.graph(), executor.states(), access);
        this.steps = Executors.newFixedThreadPool(
                settings.slots(), Thread.ofPlatform().name("cairn-step-", 0).factory());
        this.background = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("cairn-relay").daemon().factory());
        this.poller = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("cairn-job-poller").daemon().factory());
    }

    public void start() {
        controlSignals = broadcasts.subscribeControl(this::onControl);
        consumer = TaskConsumer.start(broker, settings.slots(), delivery -> steps.execute(() -> runTask(delivery)));
        long every = settings.relay().interval().toMillis();
        background.scheduleWithFixedDelay(relay::runOnce, every, every, TimeUnit.MILLISECONDS);
        poller.scheduleWithFixedDelay(this::pollJobs, POLL_TICK_MS, POLL_TICK_MS, TimeUnit.MILLISECONDS);
        LOG.log(
                Level.INFO,
                "worker started with {0} slots on {1}",
                settings.slots(),
                broker.topology().taskQueue());
    }

    /** Steps this worker has committed or skipped since it started. */
    public long stepsRun() {
        return stepsRun.get();
    }

    private void runTask(TaskConsumer.Delivery delivery) {
        long started = System.nanoTime();
        Task task = new Task(delivery.task().processId(), delivery.task().step());
        running.put(task.processId(), Thread.currentThread());
        if (recentKills.contains(task.processId())) {
            killSignalled.add(task.processId()); // its kill signal came as its task did
        }
        StepOutcome outcome;
        try {
            outcome = runWithRetries(task);
        } finally {
            running.remove(task.processId());
            killSignalled.remove(task.processId());
            Thread.interrupted();
        }
        if (outcome == null) {
            delivery.requeue();
            onStep.accept(timing(task, StepTiming.Outcome.RETURNED, started));
            return;
        }
        try {
            sink.send(outcome.tasks());
            published.addAll(outcome.outboxIds());
        } catch (BrokerException e) {
            LOG.log(
                    Level.WARNING,
                    "publishing the tasks of process {0} failed; the outbox relay will: {1}",
                    task.processId(),
                    e.getMessage());
        }
        for (StateChanged change : outcome.changes()) {
            broadcasts.publish(change);
        }
        delivery.ack();
        stepsRun.incrementAndGet();
        onStep.accept(timing(
                task, outcome.wasSkipped() ? StepTiming.Outcome.SKIPPED : StepTiming.Outcome.COMMITTED, started));
    }

    private static StepTiming timing(Task task, StepTiming.Outcome outcome, long started) {
        return new StepTiming(task.processId(), task.step(), outcome, Duration.ofNanos(System.nanoTime() - started));
    }

    /** The step's outcome, or null when the worker is stopping and the task should go back. */
    private StepOutcome runWithRetries(Task task) {
        for (int attempt = 0; ; attempt++) {
            List<Long> deletes = drainPublished();
            try {
                return executor.execute(task, deletes, () -> killSignalled.contains(task.processId()));
            } catch (StorageException | BrokerException e) {
                published.addAll(deletes);
                if (stopping) {
                    return null;
                }
                long wait = Math.min(5000, 100L << Math.min(attempt, 6));
                LOG.log(
                        Level.WARNING,
                        "step {0} of process {1} failed ({2}); retrying in {3} ms",
                        task.step(),
                        task.processId(),
                        e.getMessage(),
                        wait);
                try {
                    Thread.sleep(wait);
                } catch (InterruptedException interrupted) {
                    if (stopping) {
                        return null;
                    }
                }
            } catch (RuntimeException e) {
                // Not the process's fault (that ends it EXCEPTED) nor a known outage: hand the task back.
                published.addAll(deletes);
                LOG.log(Level.ERROR, "step " + task.step() + " of process " + task.processId() + " failed", e);
                return null;
            }
        }
    }

    /**
     * Asks the schedulers about waiting jobs (one worker per computer at a time), broadcasts the
     * changes of their scheduler states and sends the tasks of those done.
     */
    private void pollJobs() {
        try {
            JobPoller.Due due = jobPoller.pollOnce();
            for (StateChanged change : due.changes()) {
                broadcasts.publish(change);
            }
            if (!due.tasks().isEmpty()) {
                sink.send(due.tasks());
                published.addAll(due.outboxIds());
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "polling the schedulers failed: {0}", e.getMessage());
        }
    }

    private List<Long> drainPublished() {
        List<Long> ids = new ArrayList<>();
        for (Long id; (id = published.poll()) != null; ) {
            ids.add(id);
        }
        return ids;
    }

    private void onControl(ControlSignal signal) {
        if (signal.action() != ControlSignal.Action.KILL) {
            return;
        }
        // kept before looking for its step, which looks for it after it is in running: one of them sees the other
        recentKills.add(signal.processId());
        Thread t = running.get(signal.processId());
        if (t != null) {
            killSignalled.add(signal.processId());
            t.interrupt();
        }
    }

    /**
     * Stops taking tasks, lets running steps finish within the grace period (their tasks are
     * acknowledged), hands back the rest (the broker redelivers them), then disconnects.
     */
    @Override
    public void close() {
        stopping = true;
        if (consumer != null) {
            consumer.stopReceiving();
        }
        steps.shutdown();
        try {
            if (!steps.awaitTermination(settings.shutdownGrace().toMillis(), TimeUnit.MILLISECONDS)) {
                steps.shutdownNow();
            }
            steps.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        poller.shutdown();
        background.shutdown();
        try {
            poller.awaitTermination(5, TimeUnit.SECONDS);
            background.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        relay.runOnce();
        if (controlSignals != null) {
            controlSignals.close();
        }
        if (consumer != null) {
            consumer.close();
        }
        LOG.log(Level.INFO, "worker stopped after {0} steps", stepsRun.get());
    }
}
