package dev.cairn.storage.objects;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Deletes unreferenced objects in two phases ({@link Container#sweep}), safely while any process stores.
 *
 * <p>The race it closes: a put of content the container holds writes nothing, and the reference to it
 * commits later; an object found unreferenced in between and deleted at once leaves that reference
 * pointing at nothing. So a run only marks an unreferenced object ({@code deletion_mark} in the index,
 * which every process's {@link IndexCache} reads), and a put that finds the key marked writes a new loose
 * copy instead of counting on the old one. A later run deletes the key if it is still unreferenced, no
 * loose copy of it was written within the grace, and its mark is older than grace + {@link
 * IndexCache#MAX_AGE}, all measured back from a moment before the references were read.
 *
 * <p>Why that is enough, given that callers commit a reference within the grace of starting to store its
 * object: a put that missed the mark decided on a view at most MAX_AGE old, so it started before the
 * mark's stamp + MAX_AGE, and its reference committed before the references were read. A put that saw the
 * mark left a loose copy no older than its start; once that copy is older than the grace, its reference
 * has committed too. Marks are stamped after they commit, so a stamp is never earlier than the moment
 * other processes could see the mark.
 *
 * <p>Loose copies of marked keys are that evidence: packing and cleaning leave them alone, and a
 * deletion makes sure a copy a put writes meanwhile survives ({@link LooseObjects#deleteUnlessNewer}): in
 * a folder it renames the old copy aside before reading its time; in a bucket the put records itself
 * before writing its copy, and the deletion puts the copy back if it finds a record after its DELETE.
 * Records older than the grace are forgotten first: their puts' references have committed. Loose
 * files go before the index entries and the marks: a put whose view no longer holds the mark finds the
 * loose file gone too, and writes a new one.
 */
final class Sweep {

    private final ContainerParts parts;

    Sweep(ContainerParts parts) {
        this.parts = parts;
    }

    <E extends Exception> SweepReport run(Container.References<E> references, Duration grace, boolean dryRun)
            throws IOException, E {
        if (grace.isNegative()) {
            throw new IllegalArgumentException("a sweep's grace cannot be negative: " + grace);
        }
        // Listed before the references are read: an object whose reference commits meanwhile shows referenced.
        List<ObjectKey> listed = new ArrayList<>();
        new Reads(parts).forEachKey(listed::add);
        Instant asOf = Instant.now();
        Set<ObjectKey> referenced = references.read();
        Instant looseCutoff = asOf.minus(grace);
        long markCutoff = asOf.minus(grace).minus(IndexCache.MAX_AGE).toEpochMilli();

        try (PackLock.Held held = parts.lock().acquire("sweep unreferenced objects")) {
            IndexCache.Snapshot index = parts.cache().refresh();
            Map<ObjectKey, Long> marks = parts.index().markTimes();
            Set<ObjectKey> unreferenced = new HashSet<>();
            List<ObjectKey> toMark = new ArrayList<>();
            List<ObjectKey> doomed = new ArrayList<>();
            int waiting = 0;
            int recent = 0;
            for (ObjectKey k : listed) {
                if (referenced.contains(k) || !unreferenced.add(k)) {
                    continue;
                }
                Instant written = parts.loose().modified(k);
                boolean young = written != null && written.isAfter(looseCutoff);
                Long at = marks.get(k);
                if (!marks.containsKey(k)) {
                    if (young) {
                        recent++;
                    } else {
                        toMark.add(k);
                    }
                } else if (!young && at != null && at <= markCutoff) {
                    doomed.add(k);
                } else {
                    waiting++; // marked too recently (or not yet stamped: its run ended early), or stored again
                }
            }
            List<ObjectKey> toUnmark = new ArrayList<>();
            for (ObjectKey k : marks.keySet()) {
                if (!unreferenced.contains(k)) {
                    toUnmark.add(k); // referenced again, or gone
                }
            }
            if (dryRun) {
                return new SweepReport(toMark.size(), doomed.size(), toUnmark.size(), waiting, recent);
            }

            parts.loose().forgetRevivalsBefore(looseCutoff);
            List<ObjectKey> deleted = new ArrayList<>(doomed.size());
            for (ObjectKey k : doomed) {
                if (parts.loose().deleteUnlessNewer(k, looseCutoff)) {
                    deleted.add(k);
                } else {
                    waiting++; // a put stored it again while we decided
                }
            }
            Set<ObjectKey> packed = new HashSet<>();
            for (ObjectKey k : deleted) {
                if (index.find(k) != null) {
                    packed.add(k);
                }
            }
            try (IndexTransaction tx = parts.index().begin()) {
                if (!packed.isEmpty()) {
                    tx.replaceAll(index.rewritten(packed, Map.of(), List.of()));
                }
                List<ObjectKey> dropped = new ArrayList<>(toUnmark);
                dropped.addAll(deleted);
                tx.unmark(dropped);
                tx.mark(toMark);
                tx.commit();
            }
            if (!packed.isEmpty()) {
                parts.cache().invalidate();
            }
            parts.cache().refresh(); // this process's puts see the marks at once, others' within IndexCache.MAX_AGE
            if (!toMark.isEmpty() || marks.containsValue(null)) {
                // Only now that the marks are committed: see the class comment.
                try (IndexTransaction tx = parts.index().begin()) {
                    tx.stampMarks(System.currentTimeMillis());
                    tx.commit();
                }
            }
            return new SweepReport(toMark.size(), deleted.size(), toUnmark.size(), waiting, recent);
        }
    }
}
