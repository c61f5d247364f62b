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
    public record StorageInfo(
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
    public record MaintenanceRequest(
            @Schema(
                    description = "also compact the pack index, rewrite packs holding deleted bytes, mark objects"
                            + " no node refers to for deletion and delete those marked by an earlier full run at"
                            + " least the deletion grace ago",
                    example = "false",
                    nullable = true)
            Boolean full,

            @Schema(description = "change nothing; say what would be done", example = "true", nullable = true)
            Boolean dryRun) {}

    /**
     * What maintenance did, or would do with {@code dryRun}. A full run deletes unreferenced objects in two
     * phases: it marks them, and a full run at least {@code deletionGraceSeconds} later deletes those
     * still unreferenced.
     *
     * @param actions              one line per step, in the order done
     * @param unreferencedDeleted  objects deleted: marked by an earlier full run at least the grace ago,
     *                             still unreferenced and not stored again since
     * @param unreferencedMarked   unreferenced objects marked for deletion by this run
     * @param unmarked             marked objects that nodes refer to again, no longer to be deleted
     * @param pendingDeletion      objects marked for deletion after this run, for a later full run to delete
     * @param recentlyStored       unreferenced objects stored within the grace, left unmarked: their node may be
     *                             being stored
     * @param deletionGraceSeconds the grace: how long a mark waits, and how recent a store keeps an object
     */
    public record MaintenanceReport(
            boolean full,
            boolean dryRun,
            List<String> actions,
            long objectsPacked,
            long looseDeleted,
            long packsRewritten,
            long unreferencedDeleted,
            ContainerStats before,
            ContainerStats after,
            long unreferencedMarked,
            long unmarked,
            long pendingDeletion,
            long recentlyStored,
            long deletionGraceSeconds) {}

    /** One fault {@code validate} found. */
    public record Fault(
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
    public record ValidationView(long objectsChecked, long referencedObjects, boolean valid, List<Fault> faults) {}

    /** A backup request. */
    @Schema(description = "Where to back up, and how many backups to keep there")
    public record BackupRequest(
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
