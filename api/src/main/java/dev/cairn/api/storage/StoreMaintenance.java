package dev.cairn.api.storage;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.cairn.api.storage.StorageViews.MaintenanceReport;
import dev.cairn.storage.graph.ObjectStoreErrors;
import dev.cairn.storage.graph.traversal.ObjectReferences;
import dev.cairn.storage.objects.CleaningReport;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerStats;
import dev.cairn.storage.objects.PackingReport;
import dev.cairn.storage.objects.RepackReport;
import dev.cairn.storage.objects.SweepReport;

/**
 * One maintenance of the object store and the report of it: pack loose objects and remove their loose
 * copies; with {@code full}, first sweep the objects no node refers to, then compact the index and
 * rewrite packs that hold deleted bytes.
 *
 * <p>The sweep deletes in two phases ({@link Container#sweep}): a run marks unreferenced objects, and a
 * run at least the grace later deletes those still unreferenced. A node being stored whose file equals a
 * marked object stores it again, so a reference that commits after this run read the graph is never left
 * pointing at a deleted object. The grace must exceed how long storing a node may take.
 */
final class StoreMaintenance {

    private final Container store;
    private final ObjectReferences references;
    private final Duration grace;

    StoreMaintenance(Container store, ObjectReferences references, Duration grace) {
        this.store = store;
        this.references = references;
        this.grace = grace;
    }

    /** Hears of each step as it begins: what it does, its number from 1, and how many there are. */
    public interface Steps {
        Steps NONE = (what, index, of) -> {};

        void begin(String what, int index, int of);
    }

    MaintenanceReport run(boolean full, boolean dryRun, Steps steps) throws IOException {
        ContainerStats before = store.stats();
        List<String> actions = new ArrayList<>();
        String would = dryRun ? "would " : "";
        int of = (full ? 1 : 0) + (dryRun ? 0 : full ? 3 : 2);
        int step = 0;
        SweepReport sweep = new SweepReport(0, 0, 0, 0, 0);
        if (full) {
            steps.begin("finding the objects no node refers to", ++step, of);
            try {
                sweep = store.sweep(() -> references.references().keySet(), grace, dryRun);
            } catch (IOException e) {
                throw ObjectStoreErrors.translate(e, "deleting unreferenced objects");
            }
            String g = duration(grace);
            actions.add(would + "delete " + sweep.deleted() + " objects marked for deletion at least " + g
                    + " ago and still unreferenced");
            actions.add(would + "mark " + sweep.marked() + " unreferenced objects for deletion (deleted after " + g
                    + " if still unreferenced)");
            if (sweep.unmarked() > 0) {
                actions.add(would + "unmark " + sweep.unmarked() + " objects referenced again");
            }
            if (sweep.waiting() > 0) {
                actions.add(would + "keep " + sweep.waiting() + " objects marked for deletion less than " + g
                        + " ago or stored again since");
            }
            if (sweep.recent() > 0) {
                actions.add(would + "keep " + sweep.recent() + " unreferenced objects stored within the last " + g);
            }
        }
        actions.add(would + "pack " + before.looseObjects() + " loose objects (" + before.looseBytes() + " bytes)");
        long packed = 0;
        long looseDeleted = 0;
        long rewritten = 0;
        if (!dryRun) {
            try {
                steps.begin("packing " + before.looseObjects() + " loose objects", ++step, of);
                PackingReport p = store.packAllLoose();
                packed = p.objectsPacked();
                steps.begin(
                        "removing loose copies of packed objects" + (full ? ", compacting the index" : ""), ++step, of);
                CleaningReport clean = store.cleanStorage(full);
                looseDeleted = clean.looseDeleted();
                if (full) {
                    steps.begin("rewriting packs that hold deleted bytes", ++step, of);
                    RepackReport repack = store.repack();
                    rewritten = repack.packsRewritten();
                }
            } catch (IOException e) {
                throw ObjectStoreErrors.translate(e, "maintaining the object store");
            }
        }
        actions.add(would + "remove loose copies of packed objects");
        if (full) {
            actions.add(would + "compact the pack index");
            actions.add(would + "rewrite packs that hold deleted bytes");
        }
        return new MaintenanceReport(
                full,
                dryRun,
                actions,
                packed,
                looseDeleted,
                rewritten,
                sweep.deleted(),
                before,
                dryRun ? before : store.stats(),
                sweep.marked(),
                sweep.unmarked(),
                sweep.marked() + sweep.waiting(),
                sweep.recent(),
                grace.toSeconds());
    }

    /** "1 h", "90 min", "2 s": the grace as an operator set it. */
    static String duration(Duration d) {
        long ms = d.toMillis();
        if (ms == 0) {
            return "0 s";
        }
        if (ms % 3_600_000 == 0) {
            return ms / 3_600_000 + " h";
        }
        if (ms % 60_000 == 0) {
            return ms / 60_000 + " min";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + " s";
        }
        return ms + " ms";
    }
}
