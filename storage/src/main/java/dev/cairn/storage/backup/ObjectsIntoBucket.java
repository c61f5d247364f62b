package dev.cairn.storage.backup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.objects.ContainerStats;
import dev.cairn.storage.objects.NotAContainerException;
import dev.cairn.storage.objects.ObjectKey;
import dev.cairn.storage.objects.PackBatch;
import dev.cairn.storage.objects.S3Location;

/**
 * Brings a backup's object store, a container in a folder, into a bucket: every object is read from the
 * folder and written into one pack batch of the bucket's container, so the objects appear in the bucket
 * together at its commit, or not at all. Objects are copied by content rather than as files: a bucket's
 * index is a log of transactions in the bucket, not a SQLite file, and its packs are sized for a bucket;
 * the keys, which are what the database refers to, stay the same (each is checked as it is written).
 */
final class ObjectsIntoBucket {

    /** Objects read per bulk read: each read plans its keys' pack order, as many at once as is useful. */
    private static final int KEYS_PER_READ = 1000;

    private ObjectsIntoBucket() {}

    /** How many objects the bucket's container holds; 0 when there is no container under its prefix yet. */
    static long objectsIn(S3Location bucket) throws IOException {
        try (Container existing = Container.open(bucket)) {
            ContainerStats stats = existing.stats();
            return stats.looseObjects() + stats.packedObjects();
        } catch (NotAContainerException none) {
            return 0;
        }
    }

    /** The bucket's container, made with a bucket's defaults when there is none yet. */
    static Container open(S3Location bucket) throws IOException {
        try {
            return Container.open(bucket);
        } catch (NotAContainerException none) {
            return Container.init(bucket, ContainerConfig.bucketDefaults());
        }
    }

    /**
     * Copies every object of the container in {@code folder} into {@code target}; returns how many. The keys
     * are listed first (a key is about 150 bytes of memory: a million objects take 150 MB), so that the reads
     * do not run inside the listing.
     */
    static long copy(Path folder, Container target, Consumer<String> progress) throws IOException {
        try (Container source = Container.open(folder);
                PackBatch batch = target.openPackBatch(target.config().packCompression())) {
            List<ObjectKey> keys = new ArrayList<>();
            source.forEachKey(keys::add);
            for (int from = 0; from < keys.size(); from += KEYS_PER_READ) {
                List<ObjectKey> some = keys.subList(from, Math.min(keys.size(), from + KEYS_PER_READ));
                source.streamAll(some, (key, size, content) -> {
                    ObjectKey written = batch.add(content);
                    if (!written.equals(key)) {
                        throw new IOException(
                                "the backup's object " + key + " reads as " + written + ": the backup is damaged");
                    }
                });
                progress.accept(
                        "objects: " + (from + some.size()) + " of " + keys.size() + " written to " + target.location());
            }
            batch.commit();
            return keys.size();
        }
    }

    /** Deletes every object of {@code target}: a restore that failed after the copy leaves the bucket empty again. */
    static void deleteAll(Container target) throws IOException {
        List<ObjectKey> all = new ArrayList<>();
        target.forEachKey(all::add);
        target.delete(all);
    }
}
