package dev.cairn.api.codes;

import io.swagger.v3.oas.annotations.media.Schema;

/** An installed code to store, as a client sends it. */
@Schema(description = "An executable installed on a computer")
record NewInstalledCode(
        @Schema(
                description = "the code's label, unique on its computer; no '@'",
                example = "pw",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String label,

        @Schema(
                description = "the computer's label or uuid",
                example = "cluster",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String computer,

        @Schema(
                description = "the executable's absolute path on the computer",
                example = "/opt/qe/7.2/bin/pw.x",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String executable,

        @Schema(example = "Quantum ESPRESSO 7.2") String description,

        @Schema(
                description = "the calculation job (entry point) launched when none is named",
                example = "arithmetic.add")
        String defaultCalcJobPlugin,

        @Schema(description = "shell text before the code's command", example = "module load qe/7.2")
        String prependText,

        @Schema(description = "shell text after the code's command", example = "")
        String appendText,

        @Schema(description = "whether to run under MPI; absent: as the job's options say", example = "true")
        Boolean withMpi) {}
