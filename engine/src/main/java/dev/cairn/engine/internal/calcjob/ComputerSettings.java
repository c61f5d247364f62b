package dev.cairn.engine.internal.calcjob;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.cairn.engine.scheduler.JobTemplate;
import dev.cairn.engine.transport.Backoff;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.computers.Computer;

/**
 * The engine's settings of a stored computer, read from its metadata and checked, so a bad
 * setting is named when a job first uses the computer.
 *
 * @param workdir                 absolute directory under which jobs get their work directories
 * @param defaultMpiprocsPerMachine processes per machine when a job does not say; null: 1
 * @param mpirunCommand           the MPI launcher, with placeholders such as {@code {tot_num_mpiprocs}}
 * @param prependText             shell text run before every job's code; {@code appendText} after it
 * @param minimumPollInterval     the scheduler is asked about this computer's jobs at most this often,
 *                                by all workers together ({@code minimum_job_poll_interval} seconds;
 *                                default 10 s, 0.1 s for a local transport)
 * @param maxConnections          connections open to the computer at once, in use or kept idle, across all
 *                                workers; null: no limit
 * @param connectionKeepAlive     how long an SSH connection stays open after use, for the next job of this
 *                                worker to take ({@code connection_keep_alive} seconds; default 30, 0: never)
 * @param submissionsPerMinute    jobs submitted per minute across all workers; null: no limit
 * @param transportParams         the transport's parameters (user, key file, port, ...)
 * @param retry                   how a failed transport or scheduler operation is tried again: waits
 *                                growing from {@code retry_initial_interval} seconds, {@code retry_attempts}
 *                                tries in all (AiiDA's defaults, 20 s and 5), then the process is paused
 */
public record ComputerSettings(
        String workdir,
        Integer defaultMpiprocsPerMachine,
        List<String> mpirunCommand,
        String prependText,
        String appendText,
        Duration minimumPollInterval,
        Integer maxConnections,
        Duration connectionKeepAlive,
        Integer submissionsPerMinute,
        Map<String, Object> transportParams,
        Backoff retry) {

    /** AiiDA's default for a remote computer: asking a cluster's scheduler more often than this is rude. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(10);
    /** For this machine, where a poll is one local {@code ps} or {@code squeue}. */
    public static final Duration DEFAULT_LOCAL_POLL_INTERVAL = Duration.ofMillis(100);

    public static final Duration DEFAULT_KEEP_ALIVE = Duration.ofSeconds(30);

    /** The names of the settings {@link #of} reads from a computer's metadata; it ignores others. */
    public static final Set<String> NAMES = Set.of(
            "workdir",
            "transport_params",
            "minimum_job_poll_interval",
            "max_connections",
            "connection_keep_alive",
            "submissions_per_minute",
            "retry_attempts",
            "retry_initial_interval",
            "default_mpiprocs_per_machine",
            "mpirun_command",
            "prepend_text",
            "append_text");

    @SuppressWarnings("unchecked")
    public static ComputerSettings of(Computer computer) {
        Map<String, Object> m = computer.metadata();
        String where = "computer " + computer.label();
        Object w = m.get("workdir");
        if (!(w instanceof String workdir) || !workdir.startsWith("/")) {
            throw new InvalidInputException(where + " has no absolute 'workdir' in its settings (got " + w + ")");
        }
        Object mpirun = m.getOrDefault("mpirun_command", JobTemplate.DEFAULT_MPIRUN);
        List<String> launcher = switch (mpirun) {
            case String s -> List.of(s.trim().split("\\s+"));
            case List<?> l when l.stream().allMatch(String.class::isInstance) -> (List<String>) l;
            default ->
                throw new InvalidInputException(
                        where + ": 'mpirun_command' must be a list of words or one line, not " + mpirun);
        };
        Object params = m.getOrDefault("transport_params", Map.of());
        if (!(params instanceof Map<?, ?> p)) {
            throw new InvalidInputException(where + ": 'transport_params' must be a map, not " + params);
        }
        Double poll = number(where, m, "minimum_job_poll_interval", 0);
        Double retryInitial = number(where, m, "retry_initial_interval", 0);
        Double keepAlive = number(where, m, "connection_keep_alive", 0);
        Integer retryAttempts = positive(where, m, "retry_attempts");
        if (retryInitial != null && retryInitial < 0.001) {
            throw new InvalidInputException(
                    where + ": 'retry_initial_interval' must be at least 0.001 s, not " + retryInitial);
        }
        Backoff defaults = Backoff.forTransportTasks();
        Duration initial = retryInitial == null ? defaults.initial() : Duration.ofMillis((long) (retryInitial * 1000));
        Backoff retry = new Backoff(
                initial,
                defaults.factor(),
                initial.compareTo(defaults.max()) > 0 ? initial : defaults.max(),
                retryAttempts == null ? defaults.attempts() : retryAttempts);
        return new ComputerSettings(
                workdir,
                positive(where, m, "default_mpiprocs_per_machine"),
                launcher,
                text(where, m, "prepend_text"),
                text(where, m, "append_text"),
                poll != null
                        ? Duration.ofNanos((long) (poll * 1e9))
                        : computer.transportType().endsWith("local")
                                ? DEFAULT_LOCAL_POLL_INTERVAL
                                : DEFAULT_POLL_INTERVAL,
                positive(where, m, "max_connections"),
                keepAlive == null ? DEFAULT_KEEP_ALIVE : Duration.ofMillis((long) (keepAlive * 1000)),
                positive(where, m, "submissions_per_minute"),
                (Map<String, Object>) p,
                retry);
    }

    private static Integer positive(String where, Map<String, Object> m, String key) {
        Double v = number(where, m, key, 1);
        if (v != null && v != Math.rint(v)) {
            throw new InvalidInputException(where + ": '" + key + "' must be a whole number, not " + v);
        }
        return v == null ? null : v.intValue();
    }

    private static Double number(String where, Map<String, Object> m, String key, double least) {
        Object v = m.get(key);
        if (v == null) {
            return null;
        }
        if (!(v instanceof Number n) || n.doubleValue() < least) {
            throw new InvalidInputException(
                    where + ": '" + key + "' must be a number of at least " + (long) least + ", not " + v);
        }
        return n.doubleValue();
    }

    private static String text(String where, Map<String, Object> m, String key) {
        Object v = m.getOrDefault(key, "");
        if (!(v instanceof String s)) {
            throw new InvalidInputException(where + ": '" + key + "' must be text, not " + v);
        }
        return s;
    }
}
