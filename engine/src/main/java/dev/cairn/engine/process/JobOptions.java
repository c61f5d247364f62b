package dev.cairn.engine.process;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.cairn.errors.InvalidInputException;

/**
 * How a calculation job runs on its computer (AiiDA's {@code metadata.options}): what it asks
 * the batch system for, text around the command, what else to bring back. They are stored as
 * attributes of the job's node, under AiiDA's names, so they are part of its hash except
 * where the queue is chosen ({@code queue_name}, {@code account}, {@code qos}) and the limits
 * ({@code max_wallclock_seconds}, {@code max_memory_kb}), which do not change the result.
 * Start from {@link #defaults()} and change what differs with the {@code with…} methods.
 *
 * @param machines              machines to run on
 * @param mpiprocsPerMachine    MPI processes on each; null: the computer's {@code default_mpiprocs_per_machine}, else 1
 * @param coresPerMpiproc       CPUs (threads) of each process
 * @param maxWallclockSeconds   null: the queue's default
 * @param maxMemoryKb           memory per machine; null: the queue's default
 * @param queueName             SLURM partition or PBS queue; null: the default one
 * @param account               the account the job is charged to; null: the batch system's default
 * @param qos                   the quality of service asked for; null: the batch system's default
 * @param customSchedulerCommands lines put after the generated directives, as they are
 * @param prependText           shell text run before the code (after the computer's own)
 * @param appendText            shell text run after the code
 * @param withMpi               the code runs under the computer's MPI launcher
 * @param environment           variables exported in the script, with literal values
 * @param importSysEnvironment  the job starts with the submitting user's environment
 * @param additionalRetrieveList files (or globs) brought back besides those the job's {@code prepare} lists
 */
public record JobOptions(
        int machines,
        Integer mpiprocsPerMachine,
        int coresPerMpiproc,
        Long maxWallclockSeconds,
        Long maxMemoryKb,
        String queueName,
        String account,
        String qos,
        String customSchedulerCommands,
        String prependText,
        String appendText,
        boolean withMpi,
        Map<String, String> environment,
        boolean importSysEnvironment,
        List<String> additionalRetrieveList) {

    /**
     * Refuses counts below 1 and limits that are not positive, naming the option by its AiiDA
     * name, and retrieve entries that leave the work directory; null texts become empty.
     */
    public JobOptions {
        if (machines < 1) {
            throw new InvalidInputException("option num_machines must be at least 1, not " + machines);
        }
        if (mpiprocsPerMachine != null && mpiprocsPerMachine < 1) {
            throw new InvalidInputException(
                    "option num_mpiprocs_per_machine must be at least 1, not " + mpiprocsPerMachine);
        }
        if (coresPerMpiproc < 1) {
            throw new InvalidInputException("option num_cores_per_mpiproc must be at least 1, not " + coresPerMpiproc);
        }
        if (maxWallclockSeconds != null && maxWallclockSeconds < 1) {
            throw new InvalidInputException(
                    "option max_wallclock_seconds must be positive, not " + maxWallclockSeconds);
        }
        if (maxMemoryKb != null && maxMemoryKb < 1) {
            throw new InvalidInputException("option max_memory_kb must be positive, not " + maxMemoryKb);
        }
        customSchedulerCommands = customSchedulerCommands == null ? "" : customSchedulerCommands;
        prependText = prependText == null ? "" : prependText;
        appendText = appendText == null ? "" : appendText;
        environment = Collections.unmodifiableMap(new TreeMap<>(environment == null ? Map.of() : environment));
        additionalRetrieveList = List.copyOf(additionalRetrieveList == null ? List.of() : additionalRetrieveList);
        for (String r : additionalRetrieveList) {
            CalcInfo.checkRetrieveEntry(r);
        }
    }

    /** One machine, the computer's default processes, no limits, the default queue. */
    public static JobOptions defaults() {
        return new JobOptions(1, null, 1, null, null, null, null, null, "", "", "", false, Map.of(), true, List.of());
    }

    /** Machines, MPI processes on each (null: the computer's default) and CPUs of each process. */
    public JobOptions withResources(int numMachines, Integer numMpiprocsPerMachine, int numCoresPerMpiproc) {
        return new JobOptions(
                numMachines,
                numMpiprocsPerMachine,
                numCoresPerMpiproc,
                maxWallclockSeconds,
                maxMemoryKb,
                queueName,
                account,
                qos,
                customSchedulerCommands,
                prependText,
                appendText,
                withMpi,
                environment,
                importSysEnvironment,
                additionalRetrieveList);
    }

    /** Wall-clock and memory limits; null leaves either to the queue. */
    public JobOptions withLimits(Long wallclockSeconds, Long memoryKb) {
        return new JobOptions(
                machines,
                mpiprocsPerMachine,
                coresPerMpiproc,
                wallclockSeconds,
                memoryKb,
                queueName,
                account,
                qos,
                customSchedulerCommands,
                prependText,
                appendText,
                withMpi,
                environment,
                importSysEnvironment,
                additionalRetrieveList);
    }

    /** Where the job is queued and charged; null leaves any of them to the batch system. */
    public JobOptions withQueue(String queue, String accountName, String qosName) {
        return new JobOptions(
                machines,
                mpiprocsPerMachine,
                coresPerMpiproc,
                maxWallclockSeconds,
                maxMemoryKb,
                queue,
                accountName,
                qosName,
                customSchedulerCommands,
                prependText,
                appendText,
                withMpi,
                environment,
                importSysEnvironment,
                additionalRetrieveList);
    }

    /** Lines put after the generated scheduler directives, as they are (for what the options do not cover). */
    public JobOptions withCustomSchedulerCommands(String lines) {
        return new JobOptions(
                machines,
                mpiprocsPerMachine,
                coresPerMpiproc,
                maxWallclockSeconds,
                maxMemoryKb,
                queueName,
                account,
                qos,
                lines,
                prependText,
                appendText,
                withMpi,
                environment,
                importSysEnvironment,
                additionalRetrieveList);
    }

    /**
     * Shell text run just before the code (after the computer's and the code's own) and just
     * after it (before theirs).
     */
    public JobOptions withText(String prepend, String append) {
        return new JobOptions(
                machines,
                mpiprocsPerMachine,
                coresPerMpiproc,
                maxWallclockSeconds,
                maxMemoryKb,
                queueName,
                account,
                qos,
                customSchedulerCommands,
                prepend,
                append,
                withMpi,
                environment,
                importSysEnvironment,
                additionalRetrieveList);
    }

    /** Whether the code runs under the computer's MPI launcher; a code that says so itself has the last word. */
    public JobOptions withMpi(boolean mpi) {
        return new JobOptions(
                machines,
                mpiprocsPerMachine,
                coresPerMpiproc,
                maxWallclockSeconds,
                maxMemoryKb,
                queueName,
                account,
                qos,
                customSchedulerCommands,
                prependText,
                appendText,
                mpi,
                environment,
                importSysEnvironment,
                additionalRetrieveList);
    }

    /** Variables exported in the script (literal values), and whether the job starts with the user's environment. */
    public JobOptions withEnvironment(Map<String, String> variables, boolean importSystem) {
        return new JobOptions(
                machines,
                mpiprocsPerMachine,
                coresPerMpiproc,
                maxWallclockSeconds,
                maxMemoryKb,
                queueName,
                account,
                qos,
                customSchedulerCommands,
                prependText,
                appendText,
                withMpi,
                variables,
                importSystem,
                additionalRetrieveList);
    }

    /** Files (or globs) brought back besides those the job's {@code prepare} lists. */
    public JobOptions withAdditionalRetrieveList(List<String> names) {
        return new JobOptions(
                machines,
                mpiprocsPerMachine,
                coresPerMpiproc,
                maxWallclockSeconds,
                maxMemoryKb,
                queueName,
                account,
                qos,
                customSchedulerCommands,
                prependText,
                appendText,
                withMpi,
                environment,
                importSysEnvironment,
                names);
    }

    /** The node attributes holding these options, under AiiDA's names; unset ones are left out. */
    public Map<String, Object> toAttributes() {
        Map<String, Object> resources = new LinkedHashMap<>();
        resources.put("num_machines", machines);
        if (mpiprocsPerMachine != null) {
            resources.put("num_mpiprocs_per_machine", mpiprocsPerMachine);
        }
        resources.put("num_cores_per_mpiproc", coresPerMpiproc);
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("resources", resources);
        if (maxWallclockSeconds != null) {
            a.put("max_wallclock_seconds", maxWallclockSeconds);
        }
        if (maxMemoryKb != null) {
            a.put("max_memory_kb", maxMemoryKb);
        }
        if (queueName != null) {
            a.put("queue_name", queueName);
        }
        if (account != null) {
            a.put("account", account);
        }
        if (qos != null) {
            a.put("qos", qos);
        }
        a.put("custom_scheduler_commands", customSchedulerCommands);
        a.put("prepend_text", prependText);
        a.put("append_text", appendText);
        a.put("withmpi", withMpi);
        a.put("environment_variables", environment);
        a.put("import_sys_environment", importSysEnvironment);
        a.put("additional_retrieve_list", additionalRetrieveList);
        return a;
    }

    /** The options stored by {@link #toAttributes()}; defaults for what is missing. */
    @SuppressWarnings("unchecked")
    public static JobOptions fromAttributes(Map<String, Object> a) {
        Map<String, Object> r = (Map<String, Object>) a.getOrDefault("resources", Map.of());
        Map<String, String> env = new LinkedHashMap<>();
        ((Map<String, Object>) a.getOrDefault("environment_variables", Map.of()))
                .forEach((k, v) -> env.put(k, (String) v));
        return new JobOptions(
                intOr(r.get("num_machines"), 1),
                (Integer) intOr(r.get("num_mpiprocs_per_machine"), null),
                intOr(r.get("num_cores_per_mpiproc"), 1),
                longOr(a.get("max_wallclock_seconds")),
                longOr(a.get("max_memory_kb")),
                (String) a.get("queue_name"),
                (String) a.get("account"),
                (String) a.get("qos"),
                (String) a.get("custom_scheduler_commands"),
                (String) a.get("prepend_text"),
                (String) a.get("append_text"),
                Boolean.TRUE.equals(a.get("withmpi")),
                env,
                !Boolean.FALSE.equals(a.get("import_sys_environment")),
                new ArrayList<>((List<String>) a.getOrDefault("additional_retrieve_list", List.of())));
    }

    private static Integer intOr(Object value, Integer otherwise) {
        return value == null ? otherwise : Integer.valueOf(((Number) value).intValue());
    }

    private static Long longOr(Object value) {
        return value == null ? null : ((Number) value).longValue();
    }
}
