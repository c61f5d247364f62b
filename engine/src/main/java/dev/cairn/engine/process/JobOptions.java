package dev.cairn.engine.process;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.cairn.engine.scheduler.BatchOptions;
import dev.cairn.storage.errors.InvalidInputException;

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
 * @param batch                 limits, queue, directives of its own and environment, as the scheduler
 *                              gets them ({@link BatchOptions})
 * @param prependText           shell text run before the code (after the computer's own)
 * @param appendText            shell text run after the code
 * @param withMpi               the code runs under the computer's MPI launcher
 * @param additionalRetrieveList files (or globs) brought back besides those the job's {@code prepare} lists
 */
public record JobOptions(
        int machines,
        Integer mpiprocsPerMachine,
        int coresPerMpiproc,
        BatchOptions batch,
        String prependText,
        String appendText,
        boolean withMpi,
        List<String> additionalRetrieveList) {

    /**
     * Refuses counts below 1, naming the option by its AiiDA name, and retrieve entries that leave the
     * work directory; null texts become empty. The batch options checked themselves when they were made.
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
        batch = batch == null ? BatchOptions.DEFAULTS : batch;
        prependText = prependText == null ? "" : prependText;
        appendText = appendText == null ? "" : appendText;
        additionalRetrieveList = List.copyOf(additionalRetrieveList == null ? List.of() : additionalRetrieveList);
        for (String r : additionalRetrieveList) {
            CalcInfo.checkRetrieveEntry(r);
        }
    }

    /** One machine, the computer's default processes, no limits, the default queue. */
    public static JobOptions defaults() {
        return new JobOptions(1, null, 1, BatchOptions.DEFAULTS, "", "", false, List.of());
    }

    /** Machines, MPI processes on each (null: the computer's default) and CPUs of each process. */
    public JobOptions withResources(int numMachines, Integer numMpiprocsPerMachine, int numCoresPerMpiproc) {
        return new JobOptions(
                numMachines,
                numMpiprocsPerMachine,
                numCoresPerMpiproc,
                batch,
                prependText,
                appendText,
                withMpi,
                additionalRetrieveList);
    }

    /** What the batch system is asked besides the machines: limits, queue, directives, environment. */
    public JobOptions withBatch(BatchOptions options) {
        return new JobOptions(
                machines,
                mpiprocsPerMachine,
                coresPerMpiproc,
                options,
                prependText,
                appendText,
                withMpi,
                additionalRetrieveList);
    }

    /** Wall-clock and memory limits; null leaves either to the queue. */
    public JobOptions withLimits(Long wallclockSeconds, Long memoryKb) {
        return withBatch(batch.withLimits(wallclockSeconds, memoryKb));
    }

    /** Where the job is queued and charged; null leaves any of them to the batch system. */
    public JobOptions withQueue(String queue, String accountName, String qosName) {
        return withBatch(batch.withQueue(queue, accountName, qosName));
    }

    /** Lines put after the generated scheduler directives, as they are (for what the options do not cover). */
    public JobOptions withCustomSchedulerCommands(String lines) {
        return withBatch(batch.withCustomSchedulerCommands(lines));
    }

    /** Variables exported in the script (literal values), and whether the job starts with the user's environment. */
    public JobOptions withEnvironment(Map<String, String> variables, boolean importSystem) {
        return withBatch(batch.withEnvironment(variables, importSystem));
    }

    /**
     * Shell text run just before the code (after the computer's and the code's own) and just
     * after it (before theirs).
     */
    public JobOptions withText(String prepend, String append) {
        return new JobOptions(
                machines, mpiprocsPerMachine, coresPerMpiproc, batch, prepend, append, withMpi, additionalRetrieveList);
    }

    /** Whether the code runs under the computer's MPI launcher; a code that says so itself has the last word. */
    public JobOptions withMpi(boolean mpi) {
        return new JobOptions(
                machines,
                mpiprocsPerMachine,
                coresPerMpiproc,
                batch,
                prependText,
                appendText,
                mpi,
                additionalRetrieveList);
    }

    /** Files (or globs) brought back besides those the job's {@code prepare} lists. */
    public JobOptions withAdditionalRetrieveList(List<String> names) {
        return new JobOptions(
                machines, mpiprocsPerMachine, coresPerMpiproc, batch, prependText, appendText, withMpi, names);
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
        putIfSet(a, "max_wallclock_seconds", batch.maxWallclockSeconds());
        putIfSet(a, "max_memory_kb", batch.maxMemoryKb());
        putIfSet(a, "queue_name", batch.queue());
        putIfSet(a, "account", batch.account());
        putIfSet(a, "qos", batch.qos());
        a.put("custom_scheduler_commands", batch.customSchedulerCommands());
        a.put("prepend_text", prependText);
        a.put("append_text", appendText);
        a.put("withmpi", withMpi);
        a.put("environment_variables", batch.environment());
        a.put("import_sys_environment", batch.importSysEnvironment());
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
        BatchOptions batch = new BatchOptions(
                longOr(a.get("max_wallclock_seconds")),
                longOr(a.get("max_memory_kb")),
                (String) a.get("queue_name"),
                (String) a.get("account"),
                (String) a.get("qos"),
                (String) a.get("custom_scheduler_commands"),
                env,
                !Boolean.FALSE.equals(a.get("import_sys_environment")));
        return new JobOptions(
                intOr(r.get("num_machines"), 1),
                (Integer) intOr(r.get("num_mpiprocs_per_machine"), null),
                intOr(r.get("num_cores_per_mpiproc"), 1),
                batch,
                (String) a.get("prepend_text"),
                (String) a.get("append_text"),
                Boolean.TRUE.equals(a.get("withmpi")),
                new ArrayList<>((List<String>) a.getOrDefault("additional_retrieve_list", List.of())));
    }

    private static void putIfSet(Map<String, Object> attributes, String name, Object value) {
        if (value != null) {
            attributes.put(name, value);
        }
    }

    private static Integer intOr(Object value, Integer otherwise) {
        return value == null ? otherwise : Integer.valueOf(((Number) value).intValue());
    }

    private static Long longOr(Object value) {
        return value == null ? null : ((Number) value).longValue();
    }
}
