package dev.cairn.api.processes;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;

import dev.cairn.engine.launch.JsonInputs;
import dev.cairn.engine.process.CalcFunction;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.ExitCode;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.engine.process.WorkChainDefinition;
import dev.cairn.engine.process.WorkFunction;

/** A process type as a client needs it to build a launch form: its schemas and exit codes. */
@Schema(description = "A process type: what it takes (JSON Schema of the inputs and metadata), gives and may exit with")
record ProcessTypeView(
        @JsonProperty("entry_point") @Schema(description = "the name to launch it by", example = "arithmetic.add")
        String entryPoint,

        @Schema(
                description = "what kind of process it is",
                allowableValues = {"calcfunction", "workfunction", "workchain", "calcjob"},
                example = "workchain")
        String kind,

        @JsonProperty("inputs_schema")
        @Schema(
                description = "JSON Schema (2020-12) of the 'inputs' of a launch; each port's help is its"
                        + " description; also in the OpenAPI document as the component <entry_point>.inputs")
        Map<String, Object> inputsSchema,

        @JsonProperty("metadata_schema")
        @Schema(
                description = "JSON Schema of the 'metadata' of a launch (use_cache; options and computer"
                        + " for a calculation job)")
        Map<String, Object> metadataSchema,

        @JsonProperty("outputs_schema") @Schema(description = "JSON Schema of its outputs: each port's node class")
        Map<String, Object> outputsSchema,

        @JsonProperty("exit_codes") @Schema(description = "the exit statuses it may end with, 0 (success) not listed")
        List<ExitCodeView> exitCodes) {

    /** An exit code of a process type. */
    @Schema(description = "An exit code a process may end with")
    public record ExitCodeView(
            @Schema(description = "the exit status", example = "400")
            int status,

            @Schema(description = "its name", example = "ERROR_TOO_MANY_TERMS")
            String label,

            @Schema(
                    description = "what it means; {placeholders} are filled when a process ends with it",
                    example = "n is above 1000")
            String message,

            @JsonProperty("invalidates_cache")
            @Schema(description = "a process that ended with it is never a cache source")
            boolean invalidatesCache) {

        static ExitCodeView of(ExitCode code) {
            return new ExitCodeView(code.status(), code.label(), code.message(), code.invalidatesCache());
        }
    }

    static ProcessTypeView of(ProcessDefinition definition) {
        return new ProcessTypeView(
                definition.entryPoint(),
                kind(definition),
                definition.spec().inputSchema(),
                JsonInputs.metadataSchema(definition),
                definition.spec().outputSchema(),
                definition.spec().exitCodes().values().stream()
                        .map(ExitCodeView::of)
                        .toList());
    }

    static String kind(ProcessDefinition definition) {
        return switch (definition) {
            case CalcFunction f -> "calcfunction";
            case WorkFunction f -> "workfunction";
            case WorkChainDefinition<?> w -> "workchain";
            case CalcJobDefinition j -> "calcjob";
        };
    }
}
