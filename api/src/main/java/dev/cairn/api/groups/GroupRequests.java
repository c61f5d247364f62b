package dev.cairn.api.groups;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

/** What clients send to make and change groups. */
final class GroupRequests {

    private GroupRequests() {}

    /** A group to make. */
    @Schema(description = "A group to make, empty")
    public record NewGroup(
            @Schema(
                    description = "unique among the groups of its type",
                    example = "relaxations",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            String label,

            @Schema(example = "PBE relaxations of the perovskites", nullable = true)
            String description,

            @Schema(
                    description = "the type string; default (also for null) core, the type of users' groups",
                    example = "core",
                    nullable = true)
            String type,

            @Schema(
                    description = "free-form values to keep on the group; null: none",
                    example = "{\"project\": \"abx3\"}",
                    nullable = true)
            Map<String, Object> extras) {}

    /** What to change of a group; what is left out stays. */
    @Schema(description = "What to change of a group; a field left out (or null) stays as it is")
    public record GroupPatch(
            @Schema(
                    description = "a new label, unique among the groups of its type",
                    example = "relaxations-pbe",
                    nullable = true)
            String label,

            @Schema(example = "PBE relaxations, converged", nullable = true)
            String description,

            @Schema(
                    description = "extras to set; an extra set to null is removed, those not named stay",
                    example = "{\"reviewed\": true, \"draft\": null}",
                    nullable = true)
            Map<String, Object> extras) {}

    /** Nodes to add to a group and to remove from it, by uuid, in one change. */
    @Schema(description = "Nodes to add and to remove, by uuid: all of it happens, or none of it")
    public record MemberChange(
            @Schema(example = "[\"0191d3a5-7b7e-7c1a-9f00-1c2d3e4f5a6b\"]", nullable = true)
            List<UUID> add,

            @Schema(example = "[]", nullable = true) List<UUID> remove) {}

    /** What a change of members did. */
    @Schema(description = "What a change of members did", example = "{\"added\": 1, \"removed\": 0, \"nodes\": 421}")
    public record MembersChanged(
            @Schema(description = "nodes that became members (those already members do not count)")
            long added,

            @Schema(description = "members that left (nodes that were not members do not count)")
            long removed,

            @Schema(description = "how many nodes the group holds now")
            long nodes) {}
}
