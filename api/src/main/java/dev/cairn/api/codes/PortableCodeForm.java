package dev.cairn.api.codes;

import java.util.List;

import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;

/** The form a portable code is uploaded as (multipart/form-data); documentation only, Spring reads the parts. */
@Schema(description = "A portable code: its files and what to know about them, as a multipart form")
record PortableCodeForm(
        @ArraySchema(
                arraySchema =
                        @Schema(
                                description = "the code's files; each part's file name is its path in the code (a"
                                        + " file name, or a relative path such as bin/run.sh)",
                                requiredMode = Schema.RequiredMode.REQUIRED),
                schema = @Schema(type = "string", format = "binary"))
        List<String> files,

        @Schema(
                description = "the code's label, unique among portable codes; no '@'",
                example = "adder",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String label,

        @Schema(
                description = "the executable's path among the files",
                example = "bin/add.sh",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String executable,

        @Schema(example = "a shell adder") String description,

        @Schema(description = "the calculation job launched when none is named", example = "arithmetic.add")
        String defaultCalcJobPlugin,

        @Schema(description = "shell text before the code's command")
        String prependText,

        @Schema(description = "shell text after the code's command")
        String appendText,

        @Schema(description = "whether to run under MPI; absent: as the job's options say")
        Boolean withMpi) {}
