package dev.cairn.api.storage;

import java.util.List;
import java.util.Map;

import dev.cairn.storage.objects.ContainerStats;

/** The storage endpoints' answers. */
final class StorageViews {

    private StorageViews() {}

    /**
     * The installation's size.
     *
     * @param nodeTypes nodes per node type, with {@code detailed=true} only
     */
    record StorageInfo(
            long nodes,
            long links,
            long groups,
            long users,
            String schemaVersion,
            String objectStore,
            ContainerStats objects,
            Map<String, Long> nodeTypes) {}

    /** A maintenance request. */
    record MaintenanceRequest(Boolean full, Boolean dryRun) {}

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
    record Fault(String kind, String key, String where, String what) {}

    /** What validation found: no faults means the store and the graph agree. */
    record ValidationView(long objectsChecked, long referencedObjects, boolean valid, List<Fault> faults) {}

    /** A backup request. */
    record BackupRequest(String destination, Integer keep) {}
}
