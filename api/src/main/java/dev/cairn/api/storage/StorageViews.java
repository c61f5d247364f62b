package dev.cairn.api.storage;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;

import dev.cairn.storage.objects.ContainerStats;

/** The storage endpoints' answers. */
final class StorageViews {

    private StorageViews() {}

    /**
     * The installation's size.
     *
     * @param nodeTypes nodes per node type, with {@code detailed=true} only (left out otherwise)
     */
    record StorageInfo(
            long nodes,
            long links,
            long groups,
            long users,
            String schemaVersion,
            String objectStore,
            ContainerStats objects,

            @JsonInclude(JsonInclude.Include.NON_NULL)
            @Schema(description = "nodes per node type; only with detailed=true")
            Map<String, Long> nodeTypes) {}

    /** A maintenance request. */
    @Schema(description = "What maintenance to do; left out fields are false")
    record MaintenanceRequest(
            @Schema(
                    description = "also compact the pack index, rewrite packs holding deleted bytes and delete"
                            + " objects no node refers to",
                    example = "false",
                    nullable = true)
            Boolean full,

            @Schema(description = "change nothing; say what would be done", example = "true", nullable = true)
            Boolean dryRun) {}

    /**
     * What maintenance did, or would do with {@code dryRun}.
     *
     * @param actions one line per step, in the order done
     */
    record MaintenanceReport(
            boolean full,
            boolean dryRun,
            List<String> actions,
            long objectsPacked,
            long looseDeleted,
            long packsRewritten,
            long unreferencedDeleted,
            ContainerStats before,
            ContainerStats after) {}

    /** One fault {@code validate} found. */
    record Fault(
            @Schema(
                    description =
                            "object: a damaged object or pack; missing: a node refers to an object the store lacks",
                    allowableValues = {"object", "missing"})
            String kind,

            @Schema(
                    description = "the object's key; null when the fault is not about one object (a damaged pack)",
                    nullable = true)
            String key,

            String where,
            String what) {}

    /** What validation found: no faults means the store and the graph agree. */
    record ValidationView(long objectsChecked, long referencedObjects, boolean valid, List<Fault> faults) {}

    /** A backup request. */
    @Schema(description = "Where to back up, and how many backups to keep there")
    record BackupRequest(
            @Schema(
                    description = "an absolute folder on the server's host: empty, holding only backups, or new in"
                            + " an existing folder",
                    example = "/srv/backups/cairn",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            String destination,

            @Schema(
                    description = "keep only the newest N backups in the folder; 0 or left out: keep all",
                    example = "7",
                    minimum = "0",
                    nullable = true)
            Integer keep) {}
}
