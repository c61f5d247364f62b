package dev.cairn.api.computers;

import java.util.Map;

import io.swagger.v3.oas.annotations.media.Schema;

/** A computer to set up, as a client sends it. */
@Schema(description = "A computer to set up; the engine checks it before it is stored")
record NewComputer(
        @Schema(description = "unique label", example = "cluster", requiredMode = Schema.RequiredMode.REQUIRED)
        String label,

        @Schema(
                description = "the host to reach (for core.local, any name: localhost)",
                example = "login.cluster.example.org",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String hostname,

        @Schema(description = "free text; left out or null: none", example = "the group's cluster", nullable = true)
        String description,

        @Schema(
                description = "core.local or core.ssh",
                example = "core.ssh",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String transportType,

        @Schema(
                description = "core.direct, core.slurm, core.pbspro or core.torque",
                example = "core.slurm",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String schedulerType,

        @Schema(
                description =
                        "workdir (required, absolute) and the other computer settings of the documentation's"
                                + " \"Running on a cluster\": transport_params, max_connections, minimum_job_poll_interval, ...",
                example = "{\"workdir\": \"/scratch/alice/cairn\", \"transport_params\":"
                        + " {\"username\": \"alice\", \"key_filename\": \"~/.ssh/id_ed25519\"}}",
                requiredMode = Schema.RequiredMode.REQUIRED)
        Map<String, Object> settings) {}
