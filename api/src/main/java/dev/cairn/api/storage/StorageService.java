package dev.cairn.api.storage;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import org.springframework.stereotype.Service;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.storage.StorageViews.Fault;
import dev.cairn.api.storage.StorageViews.MaintenanceReport;
import dev.cairn.api.storage.StorageViews.StorageInfo;
import dev.cairn.api.storage.StorageViews.ValidationView;
import dev.cairn.storage.Storage;
import dev.cairn.storage.backup.Backups;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.traversal.ObjectReferences;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ObjectKey;
import dev.cairn.storage.objects.ValidationReport;
import dev.cairn.storage.views.GraphSizes;

/**
 * The installation's storage, for every surface of the server: how big the graph and the object store
 * are, the object store's maintenance while the server runs (packing, and with {@code full} the sweep of
 * objects no node refers to), its validation against what the graph refers to, and backups.
 */
@Service
class StorageService {

    private final Storage storage;
    private final Container store;
    /** How long an unreferenced object stays marked before a full maintenance deletes it. */
    private final Duration deletionGrace;

    StorageService(Storage storage, CairnProperties properties) {
        this.storage = storage;
        this.store = storage.objectStore();
        this.deletionGrace = properties.store().deletionGrace();
    }

    /** Counts of nodes, links, groups and users, the schema's version and the object store's figures. */
    public StorageInfo info(boolean detailed) throws IOException {
        GraphSizes.Sizes sizes = storage.sizes().read(detailed);
        return new StorageInfo(
                sizes.nodes(),
                sizes.links(),
                sizes.groups(),
                sizes.users(),
                sizes.schemaVersion(),
                store.location(),
                store.stats(),
                sizes.nodesByType());
    }

    /** One maintenance of the object store; {@code steps} hears each step as it begins. */
    public MaintenanceReport maintain(boolean full, boolean dryRun, StoreMaintenance.Steps steps) throws IOException {
        return new StoreMaintenance(store, storage.objectReferences(), deletionGrace).run(full, dryRun, steps);
    }

    /** Every object rehashed and the index checked against the packs; every object the graph refers to looked up. */
    public ValidationView validate() throws IOException {
        ValidationReport report = store.validate();
        List<Fault> faults = new ArrayList<>();
        for (ValidationReport.Problem p : report.problems()) {
            faults.add(new Fault("object", p.key() == null ? null : p.key().toString(), p.where(), p.what()));
        }
        Map<ObjectKey, ObjectReferences.Reference> referenced =
                storage.objectReferences().references();
        Set<ObjectKey> existing = store.existing(referenced.keySet());
        referenced.forEach((key, ref) -> {
            if (!existing.contains(key)) {
                faults.add(new Fault(
                        "missing",
                        key.toString(),
                        "node " + ref.node() + " file " + ref.path(),
                        "the graph refers to an object the store does not hold"));
            }
        });
        return new ValidationView(report.objectsChecked(), referenced.size(), faults.isEmpty(), faults);
    }

    /**
     * Backs up the database and the object store into the folder of backups {@code destination} (see
     * {@link #destination}), keeping the newest {@code keep} (0: all); {@code progress} hears each step.
     */
    public Backups.Result backup(Path destination, int keep, Consumer<String> progress) {
        return storage.backup(destination, keep, progress);
    }

    /**
     * The backup folder a request names, refused (400) unless it is a folder of backups or may become one:
     * an absolute, normalized path that is an empty folder, a folder holding only backups, or a new
     * folder in an existing one. A backup prunes and clears leftovers in its folder, so it never writes
     * into a folder holding anything else (a home, {@code /}, {@code /tmp}).
     */
    public static Path destination(String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidInputException("'destination' is required: a folder on the server's host");
        }
        Path dest;
        try {
            dest = Path.of(value);
        } catch (InvalidPathException e) {
            throw new InvalidInputException("'destination' is not a path: " + e.getReason());
        }
        if (!dest.isAbsolute()) {
            throw new InvalidInputException("'destination' must be an absolute path on the server's host: " + dest);
        }
        if (!dest.normalize().equals(dest)) {
            throw new InvalidInputException(
                    "'destination' must be a path without '.' or '..': " + value + " (say " + dest.normalize() + ")");
        }
        if (Files.exists(dest)) {
            if (!Files.isDirectory(dest)) {
                throw new InvalidInputException("'destination' " + dest + " exists and is not a folder");
            }
            List<String> others = new ArrayList<>();
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dest)) {
                for (Path p : entries) {
                    if (!Backups.isBackupEntry(p.getFileName().toString())) {
                        others.add(p.getFileName().toString());
                    }
                }
            } catch (IOException e) {
                throw new InvalidInputException("'destination' " + dest + " cannot be read: " + e.getMessage());
            }
            if (!others.isEmpty()) {
                Collections.sort(others);
                throw new InvalidInputException("'destination' " + dest + " holds more than backups ("
                        + String.join(", ", others.subList(0, Math.min(5, others.size())))
                        + (others.size() > 5 ? ", …" : "") + "): name an empty folder or one of backups only");
            }
        } else if (dest.getParent() == null || !Files.isDirectory(dest.getParent())) {
            throw new InvalidInputException(
                    "'destination' " + dest + " does not exist, nor does its parent folder " + dest.getParent());
        }
        return dest;
    }
}
