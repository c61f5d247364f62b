package dev.cairn.api.worker;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.config.Services;
import dev.cairn.engine.Engine;
import dev.cairn.engine.worker.OutboxRelay;
import dev.cairn.engine.worker.Worker;

/**
 * The worker role: the engine's worker in this JVM, started with the server and stopped before
 * the engine closes (running steps finish within the grace period, the rest go back to the
 * broker). With the embedded broker, whose queues did not outlive the last run, it first sends
 * the tasks of every process that was due.
 */
@Component
class WorkerRole implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(WorkerRole.class);

    private final CairnProperties properties;
    private final Engine engine;
    private final Services services;
    private volatile Worker worker;

    WorkerRole(CairnProperties properties, Engine engine, Services services) {
        this.properties = properties;
        this.engine = engine;
        this.services = services;
    }

    @Override
    public void start() {
        if (!properties.hasRole(CairnProperties.Role.WORKER)) {
            return;
        }
        CairnProperties.Worker settings = properties.worker();
        worker = engine.startWorker(
                new Worker.Settings(settings.slots(), settings.shutdownGrace(), OutboxRelay.Settings.defaults()));
        if (services.hasEmbeddedBroker()) {
            int sent = engine.resendDueTasks();
            if (sent > 0) {
                LOG.info("sent the tasks of {} process(es) due since the last run", sent);
            }
        }
    }

    @Override
    public void stop() {
        Worker w = worker;
        worker = null;
        if (w != null) {
            // logged here, through SLF4J: the engine logs through java.util.logging, whose own shutdown
            // hook drops its handlers while the JVM stops, so the worker's own lines may be lost then
            LOG.info(
                    "stopping the worker: running steps have {} to finish",
                    properties.worker().shutdownGrace());
            w.close();
            LOG.info("worker role stopped ({} steps run)", w.stepsRun());
        }
    }

    @Override
    public boolean isRunning() {
        return worker != null;
    }

    /** Stops after the web server has stopped taking requests, and before the engine closes. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 1024;
    }
}
