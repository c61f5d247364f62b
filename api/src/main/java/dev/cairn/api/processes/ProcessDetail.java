package dev.cairn.api.processes;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;

/** One process with everything around it: inputs, outputs, caller, what it called, how it ended. */
@Schema(description = "A process with its inputs, outputs, caller, the processes it called and how it ended")
public record ProcessDetail(
        @Schema(description = "the process, as lists show it")
        ProcessSummary process,

        @Schema(description = "the node's description", example = "")
        String description,

        @Schema(description = "its inputs by port path ('parameters.scf'), each a node")
        Map<String, NodeRef> inputs,

        @Schema(description = "its outputs by port path, each a node")
        Map<String, NodeRef> outputs,

        @Schema(description = "the processes it called, oldest first")
        List<ProcessSummary> called,

        @JsonProperty("exit_code")
        @Schema(
                description = "how it ended: its exit status with the label and message the process type"
                        + " gives it; null until it finished",
                nullable = true)
        ExitCodeRef exitCode,

        @Schema(description = "the stack trace of an excepted process", nullable = true)
        String exception,

        @Schema(description = "for a calculation job: its scheduler job", nullable = true)
        Job job,

        @JsonProperty("cached_from")
        @Schema(description = "the node its outputs were copied from, when it came from the cache", nullable = true)
        UUID cachedFrom) {

    /** A node linked to the process: a data node, or another process. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(description = "A node, with the value of a plain Int, Float, Str or Bool")
    public record NodeRef(
            @Schema(description = "the node's uuid") UUID uuid,

            @Schema(description = "the node's primary key in this installation", example = "42")
            long pk,

            @JsonProperty("node_type") @Schema(description = "its type", example = "data.core.int.Int.")
            String nodeType,

            @Schema(description = "the value of an Int, Float, Str or Bool node; absent for others", example = "3")
            Object value) {}

    /** An exit status, read with the process type's spec. */
    @Schema(description = "An exit status with its meaning")
    public record ExitCodeRef(
            @Schema(description = "the exit status, 0 for success", example = "0")
            int status,

            @Schema(
                    description = "the exit code's label (OK for 0); null when the process type is unknown here",
                    example = "OK",
                    nullable = true)
            String label,

            @Schema(description = "the message the process ended with, or the exit code's", example = "")
            String message) {}

    /** A calculation job's scheduler job. */
    @Schema(description = "A calculation job's job on its computer")
    public record Job(
            @JsonProperty("job_id") @Schema(description = "the scheduler's job id", nullable = true, example = "4242")
            String jobId,

            @JsonProperty("remote_workdir") @Schema(description = "its work directory on the computer", nullable = true)
            String remoteWorkdir,

            @JsonProperty("scheduler_state")
            @Schema(description = "what the scheduler last said", nullable = true, example = "running")
            String schedulerState,

            @JsonProperty("scheduler_lastchecktime")
            @Schema(
                    description = "when scheduler_state and last_job_info were last written: at each change of"
                            + " state, else once every 6 poll intervals; null before the first poll",
                    nullable = true)
            OffsetDateTime schedulerLastCheckTime,

            @JsonProperty("last_job_info")
            @Schema(
                    description = "the job as the scheduler's listing last showed it, written with scheduler_state, in"
                            + " AiiDA's JobInfo.get_dict() form: job_id, job_state and job_substate always; title,"
                            + " annotation, exit_status, job_owner, queue_name, num_machines, num_cpus,"
                            + " wallclock_time_seconds, requested_wallclock_time_seconds and allocated_machines"
                            + " ([{name}]) when the scheduler says; null before the first poll",
                    nullable = true,
                    example = """
                            {"job_id": "4242", "job_state": "running", "job_substate": "R", "title": "cairn-…-1",
                             "num_machines": 1, "wallclock_time_seconds": 75}""")
            Map<String, Object> lastJobInfo,

            @Schema(description = "the computer's label", nullable = true, example = "localhost")
            String computer) {}
}
