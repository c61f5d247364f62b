package dev.cairn.api.groups;

import java.time.OffsetDateTime;
import java.util.Map;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.cairn.storage.graph.groups.Group;

/** A group as the API shows it, with how many nodes it holds. */
@Schema(description = "A named set of nodes", example = """
                {"uuid": "0191d3a5-7b7e-7c1a-9f00-1c2d3e4f5a6b", "label": "relaxations", "type": "core",
                 "description": "PBE relaxations of the perovskites", "extras": {"project": "abx3"},
                 "time": "2026-11-24T10:15:30.123+00:00", "user": "alice@example.org", "nodes": 420}""")
record GroupView(
        UUID uuid,
        String label,

        @Schema(description = "the group's type string: core for users' groups", example = "core")
        String type,

        String description,
        Map<String, Object> extras,
        @Schema(description = "when the group was made") OffsetDateTime time,

        @Schema(description = "the email of the user who made it")
        String user,

        @Schema(description = "how many nodes the group holds")
        long nodes) {

    static GroupView of(Group g, String user, long nodes) {
        return new GroupView(g.uuid(), g.label(), g.typeString(), g.description(), g.extras(), g.time(), user, nodes);
    }
}
