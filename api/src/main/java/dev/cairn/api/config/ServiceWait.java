package dev.cairn.api.config;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.cairn.engine.Engine;
import dev.cairn.storage.db.DatabaseProbe;
import dev.cairn.storage.errors.InvalidInputException;

/**
 * At start-up, before the engine connects: waits until the configured database and broker answer. In a
 * deployment they may start after the server, or restart (compose, a reboot of their host), so a service that
 * does not answer is tried again, the wait doubling from 1 s up to 30 s, each attempt one line of the log. A
 * refusal that waiting will not change (a wrong password, a database or virtual host that does not exist) is a
 * {@link StartupProblem} at once.
 */
final class ServiceWait {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceWait.class);
    private static final Duration FIRST_WAIT = Duration.ofSeconds(1);
    private static final Duration LONGEST_WAIT = Duration.ofSeconds(30);
    private static final int CONNECT_TIMEOUT_SECONDS = 10;

    private ServiceWait() {}

    /** A failed attempt: a refusal ends the wait; anything else is waited out. */
    private interface Attempt {
        /** Returns normally when the service answered; throws what it said otherwise. */
        void run() throws Exception;
    }

    /** Waits until the configured database accepts a connection of this server's role. */
    static void forDatabase(CairnProperties.Database db) {
        String url = Services.withCredentials(db.url(), db.user(), db.password());
        waitFor("the database at " + DatabaseProbe.where(url), () -> {
            try {
                DatabaseProbe.connectOnce(url, Duration.ofSeconds(CONNECT_TIMEOUT_SECONDS));
            } catch (InvalidInputException e) {
                throw new StartupProblem(
                        e.getMessage() + " (cairn.database.url, .user and .password; CAIRN_DATABASE_URL, ...)", e);
            }
        });
    }

    /** Waits until the broker at {@code amqpUri} (one of {@code addresses}, if any) accepts this server's user. */
    static void forBroker(String amqpUri, List<String> addresses) {
        waitFor("the broker at " + redact(amqpUri), () -> {
            try {
                Engine.probeBroker(amqpUri, addresses, Duration.ofSeconds(CONNECT_TIMEOUT_SECONDS));
            } catch (InvalidInputException e) {
                throw new StartupProblem(e.getMessage() + " (cairn.broker.uri, CAIRN_BROKER_URI)", e);
            }
        });
    }

    /**
     * Tries {@code attempt} until it succeeds. A server told to stop while it waits (SIGTERM) stops waiting:
     * Spring's stop waits for the start-up to end, so a wait that went on would hold the process forever.
     */
    private static void waitFor(String service, Attempt attempt) {
        Thread waiting = Thread.currentThread();
        AtomicBoolean stopping = new AtomicBoolean();
        Thread stop = new Thread(
                () -> {
                    stopping.set(true);
                    waiting.interrupt();
                },
                "stop-waiting-for-services");
        Runtime.getRuntime().addShutdownHook(stop);
        try {
            tryUntilAnswered(service, attempt, stopping);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(stop);
            } catch (IllegalStateException alreadyStopping) {
                // the process is stopping: the hook has run or runs now
            }
        }
    }

    private static void tryUntilAnswered(String service, Attempt attempt, AtomicBoolean stopping) {
        Duration wait = FIRST_WAIT;
        for (int attempts = 1; ; attempts++) {
            try {
                attempt.run();
                if (attempts > 1) {
                    LOG.info("{} answers (attempt {})", service, attempts);
                }
                return;
            } catch (StartupProblem refused) {
                throw refused;
            } catch (Exception e) {
                LOG.warn("{} does not answer ({}); trying again in {} s", service, reason(e), wait.toSeconds());
            }
            try {
                if (stopping.get()) {
                    throw new InterruptedException("the server is stopping");
                }
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StartupProblem("stopped while waiting for " + service, e);
            }
            wait = wait.multipliedBy(2).compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : wait.multipliedBy(2);
        }
    }

    /** The innermost message, on one line: "Connection refused", "postgres: Name or service not known". */
    private static String reason(Exception e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root instanceof TimeoutException) {
            return "no answer within " + CONNECT_TIMEOUT_SECONDS + " s";
        }
        String message =
                root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
        String name = root.getClass().getSimpleName();
        return (message.contains(name) ? message : name + ": " + message).replaceAll("\\s+", " ");
    }

    /** The URI without its password. */
    private static String redact(String amqpUri) {
        return amqpUri.replaceFirst("(//[^:/@]*):[^@/]*@", "$1:***@");
    }
}
