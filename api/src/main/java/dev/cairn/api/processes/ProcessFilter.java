package dev.cairn.api.processes;

import java.time.OffsetDateTime;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * Which processes a list shows or a control acts on: every criterion given must hold; those
 * left out (null) do not count, so the document says each may be null.
 */
@Schema(description = "Which processes: each criterion given must hold")
public record ProcessFilter(
        @Schema(
                nullable = true,
                description = "these processes, by uuid or unique prefix",
                example = "[\"0190c1a2\", \"0190c1a3-77aa\"]")
        List<String> processes,

        @JsonProperty("state")
        @Schema(
                nullable = true,
                description = "in one of these states (created, waiting, finished, excepted, killed)",
                example = "[\"created\", \"waiting\"]")
        List<String> states,

        @Schema(
                nullable = true,
                description = "of this entry point, or of those beginning with what comes before a final '*'",
                example = "arithmetic.*")
        String type,

        @JsonProperty("kind")
        @Schema(nullable = true)
        @ArraySchema(
                arraySchema =
                        @Schema(
                                nullable = true,
                                description = "of one of these kinds",
                                example = "[\"calcjob\", \"workchain\"]"),
                schema = @Schema(allowableValues = {"calcfunction", "calcjob", "workchain", "workfunction"}))
        List<String> kinds,

        @Schema(
                nullable = true,
                description = "with this label, or a label beginning with what comes before a final '*'",
                example = "run-7")
        String label,

        @JsonProperty("exit_status")
        @Schema(nullable = true, description = "finished with this exit status", example = "0")
        Integer exitStatus,

        @Schema(nullable = true, description = "true: finished with a non-zero exit status; false: anything else")
        Boolean failed,

        @Schema(nullable = true, description = "paused, or not")
        Boolean paused,

        @Schema(nullable = true, description = "launched at or after this time", example = "2026-11-24T00:00:00Z")
        OffsetDateTime since,

        @Schema(nullable = true, description = "launched before this time", example = "2026-11-25T00:00:00Z")
        OffsetDateTime until,

        @Schema(nullable = true, description = "called by this process (uuid or unique prefix)", example = "0190c1a2")
        String caller,

        @JsonProperty("top_level")
        @Schema(nullable = true, description = "true: called by no process; false: called by one")
        Boolean topLevel,

        @Schema(nullable = true, description = "in the group of this label (of type core)", example = "relaxations")
        String group) {

    /** No criterion at all: every process. */
    public static final ProcessFilter ANY =
            new ProcessFilter(null, null, null, null, null, null, null, null, null, null, null, null, null);

    /** An empty list or text is no criterion. */
    public ProcessFilter {
        processes = processes == null || processes.isEmpty() ? null : List.copyOf(processes);
        states = states == null || states.isEmpty() ? null : List.copyOf(states);
        type = type == null || type.isBlank() ? null : type.strip();
        kinds = kinds == null || kinds.isEmpty() ? null : List.copyOf(kinds);
        label = label == null || label.isEmpty() ? null : label;
        caller = caller == null || caller.isBlank() ? null : caller.strip();
        group = group == null || group.isEmpty() ? null : group;
    }

    /** Whether it names no criterion, so that it matches every process. */
    public boolean isEmpty() {
        return equals(ANY);
    }
}
