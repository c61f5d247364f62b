package dev.cairn.api.groups;

import java.time.OffsetDateTime;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;

/** A node of a group, in short: what it is, not its attributes (GET /api/v1/nodes/{uuid} has them). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(description = "A node of a group, in short", example = """
                {"uuid": "0191d3a5-7b7e-7c1a-9f00-1c2d3e4f5a6b", "nodeType": "data.core.structure.StructureData.",
                 "label": "BaTiO3", "ctime": "2026-11-24T10:15:30.123+00:00"}""")
record MemberView(
        UUID uuid,
        String nodeType,

        @Schema(description = "a process's type (its entry point); absent for data")
        String processType,

        String label,
        OffsetDateTime ctime) {}
