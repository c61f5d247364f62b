package dev.cairn.api.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.security.TokenService;
import dev.cairn.engine.Engine;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.query.Filter;
import dev.cairn.storage.query.QueryBuilder;

/**
 * Runs the demo once the server is ready (its worker started, the admin token written), in a thread
 * of its own so that the server serves meanwhile, and prints its report to standard output. On with
 * {@code cairn.demo=true}, which {@code ./cairn up} passes. Stopping the server interrupts it.
 */
@Component
@ConditionalOnBooleanProperty("cairn.demo")
class DemoRunner {

    private static final Logger LOG = LoggerFactory.getLogger(DemoRunner.class);

    /** How long the demo waits for its processes: they take seconds, unless no worker takes them. */
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    private final Engine engine;
    private final CairnProperties properties;
    private final Environment environment;
    private final TokenService tokens;
    private volatile Thread thread;

    DemoRunner(Engine engine, CairnProperties properties, Environment environment, TokenService tokens) {
        this.engine = engine;
        this.properties = properties;
        this.environment = environment;
        this.tokens = tokens;
    }

    @EventListener(ApplicationReadyEvent.class)
    void start() {
        thread = Thread.ofPlatform().name("cairn-demo").daemon().start(this::runAndPrint);
    }

    @PreDestroy
    void stop() throws InterruptedException {
        Thread t = thread;
        if (t != null) {
            t.interrupt();
            t.join(Duration.ofSeconds(10));
        }
    }

    private void runAndPrint() {
        try {
            DemoReport report = run();
            System.out.print(report.text());
            System.out.flush();
            LOG.info("the demo is done");
        } catch (InterruptedException e) {
            LOG.info("the demo was stopped with the server");
        } catch (RuntimeException e) {
            LOG.error("the demo failed: {}", e.getMessage(), e);
        }
    }

    DemoReport run() throws InterruptedException {
        Path dataDir = properties.dataDir().toAbsolutePath();
        InstalledCode bash = new LocalhostBash(engine, dataDir.resolve("work")).code();
        long nodesBefore = count(Filter.field("id").gt(0));
        long processesBefore = count(Filter.field("node_type").like("process.%"));
        DemoProcesses processes = new DemoProcesses(engine, TIMEOUT);
        List<DemoOutcome> outcomes = new ArrayList<>(processes.run(processes.first(bash)));
        outcomes.addAll(processes.run(List.of(processes.cachedRerun(bash))));
        return new DemoReport(
                outcomes,
                nodesBefore,
                processesBefore,
                count(Filter.field("id").gt(0)),
                properties.hasRole(CairnProperties.Role.API) ? baseUrl() : null,
                properties.tokenFile().toAbsolutePath(),
                tokenWorks(properties.tokenFile()),
                dataDir);
    }

    /** Whether the token file holds a valid token: a revoked or expired one is not shown as the admin token. */
    private boolean tokenWorks(Path file) {
        try {
            String secret = Files.readString(file).strip();
            return tokens.bySecret(secret)
                    .map(t -> t.isValidAt(OffsetDateTime.now()))
                    .orElse(false);
        } catch (IOException e) {
            return false;
        }
    }

    private String baseUrl() {
        return "http://localhost:" + environment.getProperty("local.server.port", "8080");
    }

    private long count(Filter filter) {
        return engine.storage()
                .query(QueryBuilder.start()
                        .node("n", v -> v.where(filter).project("id"))
                        .build())
                .count();
    }
}
