package dev.cairn.api.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.cairn.storage.errors.UnavailableException;

/**
 * The PostgreSQL server process of a cluster, found through the cluster's {@code postmaster.pid}
 * (its first line is the pid). pg_ctl starts it in a session of its own, so it is no child of the
 * JVM and outlives a server that is killed; the next start finds it here.
 */
final class Postmaster {

    private static final Logger LOG = LoggerFactory.getLogger(Postmaster.class);

    private Postmaster() {}

    /** The running postmaster of {@code cluster}, if there is one. A stale pid file names none. */
    static Optional<ProcessHandle> of(Path cluster) {
        List<String> lines;
        try {
            lines = Files.readAllLines(cluster.resolve("postmaster.pid"));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UnavailableException("reading " + cluster.resolve("postmaster.pid") + ": " + e.getMessage(), e);
        }
        if (lines.isEmpty() || !lines.getFirst().strip().matches("\\d+")) {
            return Optional.empty();
        }
        return ProcessHandle.of(Long.parseLong(lines.getFirst().strip())).filter(p -> runs(p, cluster));
    }

    /** Whether {@code process} is a postgres server whose data directory is {@code cluster}. */
    private static boolean runs(ProcessHandle process, Path cluster) {
        ProcessHandle.Info info = process.info();
        boolean postgres = info.command().map(c -> c.endsWith("/postgres")).orElse(false);
        boolean ours = info.arguments()
                .map(args -> Arrays.asList(args).contains(cluster.toString()))
                .orElse(false);
        return postgres && ours;
    }

    /**
     * Stops a postmaster left running on {@code cluster} by a server that was killed. The caller
     * holds the folder's lock, so no live server uses it; SIGTERM (a smart shutdown) is enough, its
     * clients having died with that server.
     */
    static void stopOrphan(Path cluster, Duration wait) {
        Optional<ProcessHandle> orphan = of(cluster);
        if (orphan.isEmpty()) {
            return;
        }
        ProcessHandle p = orphan.get();
        LOG.warn(
                "stopping the PostgreSQL (pid {}) that a server which did not stop left running on {}",
                p.pid(),
                cluster);
        p.destroy();
        if (!awaitExit(p, wait)) {
            throw new UnavailableException(
                    "the PostgreSQL (pid " + p.pid() + ") left running on " + cluster + " did not stop within "
                            + wait.toSeconds() + " s; stop it (kill " + p.pid() + ") and start again");
        }
    }

    /** Waits for {@code process} to end; false if it still runs after {@code wait}. */
    static boolean awaitExit(ProcessHandle process, Duration wait) {
        try {
            process.onExit().get(wait.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return !process.isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }
}
