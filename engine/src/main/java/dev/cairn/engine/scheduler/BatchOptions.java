package dev.cairn.engine.scheduler;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * What a job asks of the batch system besides its machines and commands: limits, where it is queued and
 * charged, directives of its own, its environment. A calculation job's options ({@code JobOptions}) hold
 * them as the user gave them and its {@link JobTemplate} passes them to the scheduler as they are, so
 * each is written and checked here once: a value a batch system cannot take is refused when the options
 * are made, before anything is stored or a script written.
 *
 * @param maxWallclockSeconds null: the queue's default
 * @param maxMemoryKb memory per machine; null: the queue's default
 * @param queue SLURM partition or PBS queue; null: the default one. {@code account} and {@code qos}
 *     likewise
 * @param customSchedulerCommands lines put after the generated directives, as they are; null: none
 * @param environment variables exported in the script, with literal values (no {@code $} expansion),
 *     sorted so that the same options always give the same script (and the same hash)
 * @param importSysEnvironment whether the job starts with the submitting user's environment
 */
public record BatchOptions(
        Long maxWallclockSeconds,
        Long maxMemoryKb,
        String queue,
        String account,
        String qos,
        String customSchedulerCommands,
        Map<String, String> environment,
        boolean importSysEnvironment) {

    /** No limits, the default queue, no directives of its own, the submitting user's environment. */
    public static final BatchOptions DEFAULTS = new BatchOptions(null, null, null, null, null, "", Map.of(), true);

    private static final Pattern DIRECTIVE_VALUE = Pattern.compile("[A-Za-z0-9_.@+-]+");
    private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    public BatchOptions {
        if (maxWallclockSeconds != null && maxWallclockSeconds <= 0) {
            throw new InvalidInputException("max wall-clock time must be positive seconds, not " + maxWallclockSeconds);
        }
        if (maxMemoryKb != null && maxMemoryKb <= 0) {
            throw new InvalidInputException("max memory must be positive kB, not " + maxMemoryKb);
        }
        checkDirective("queue", queue);
        checkDirective("account", account);
        checkDirective("QOS", qos);
        customSchedulerCommands = text("custom scheduler commands", customSchedulerCommands);
        var sorted = new TreeMap<String, String>();
        (environment == null ? Map.<String, String>of() : environment).forEach((name, value) -> {
            if (name == null || !VARIABLE.matcher(name).matches()) {
                throw new InvalidInputException("environment variable name '" + name
                        + "' must be letters, digits and '_', not starting with a digit");
            }
            if (value == null || value.indexOf('\0') >= 0) {
                throw new InvalidInputException(
                        "environment variable " + name + " needs a value without NUL characters");
            }
            sorted.put(name, value);
        });
        environment = Collections.unmodifiableMap(sorted);
    }

    /** Wall-clock and memory limits; null leaves either to the queue. */
    public BatchOptions withLimits(Long wallclockSeconds, Long memoryKb) {
        return new BatchOptions(
                wallclockSeconds,
                memoryKb,
                queue,
                account,
                qos,
                customSchedulerCommands,
                environment,
                importSysEnvironment);
    }

    /** Where the job is queued and charged; null leaves any of them to the batch system. */
    public BatchOptions withQueue(String queueName, String accountName, String qosName) {
        return new BatchOptions(
                maxWallclockSeconds,
                maxMemoryKb,
                queueName,
                accountName,
                qosName,
                customSchedulerCommands,
                environment,
                importSysEnvironment);
    }

    /** Lines put after the generated scheduler directives, as they are (for what the options do not cover). */
    public BatchOptions withCustomSchedulerCommands(String lines) {
        return new BatchOptions(
                maxWallclockSeconds, maxMemoryKb, queue, account, qos, lines, environment, importSysEnvironment);
    }

    /** Variables exported in the script (literal values), and whether the job starts with the user's environment. */
    public BatchOptions withEnvironment(Map<String, String> variables, boolean importSystem) {
        return new BatchOptions(
                maxWallclockSeconds,
                maxMemoryKb,
                queue,
                account,
                qos,
                customSchedulerCommands,
                variables,
                importSystem);
    }

    private static void checkDirective(String what, String value) {
        if (value != null && !DIRECTIVE_VALUE.matcher(value).matches()) {
            throw new InvalidInputException(what + " '" + value
                    + "' must be letters, digits, '.', '_', '@', '+' or '-' (it goes into a directive unquoted)");
        }
    }

    /** Text that goes into a script: null is none; a NUL character no shell can take. */
    static String text(String what, String value) {
        if (value == null) {
            return "";
        }
        if (value.indexOf('\0') >= 0) {
            throw new InvalidInputException(what + " contains a NUL character");
        }
        return value;
    }
}
