package dev.cairn.storage.objects;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A content-addressed object store in one folder: loose objects (one file each, written by any number of
 * threads and processes at once), packs (objects concatenated, indexed by an SQLite database) and a
 * sandbox for writes in progress.
 *
 * <pre>{@code
 * try (Container c = Container.init(path, ContainerConfig.defaults())) {
 *     ObjectKey key = c.put("hello".getBytes());
 *     c.packAllLoose();
 *     c.cleanStorage(false);
 *     byte[] back = c.get(key);
 * }
 * }</pre>
 *
 * <p>Thread-safe. Reads never block; the operations that write packs ({@link #packAllLoose},
 * {@link #openPackBatch}, {@link #putAllToPacks}, {@link #cleanStorage}, {@link #repack}, {@link #delete},
 * {@link #sweep}) take the container's pack lock and fail with {@link ContainerLockedException} if another
 * process or thread holds it. Deletes and marks by other processes are seen at this process's next bulk
 * call or missed look-up, and by a put within a second.
 */
public final class Container implements AutoCloseable {

    private final ContainerParts parts;
    private final Reads reads;
    private final Maintenance maintenance;

    private Container(ContainerParts parts) {
        this.parts = parts;
        this.reads = new Reads(parts);
        this.maintenance = new Maintenance(parts);
    }

    /** Creates a container in {@code root} (an empty or missing folder) and opens it. */
    public static Container init(Path root, ContainerConfig config) throws IOException {
        if (Files.exists(root.resolve(ConfigFile.NAME))) {
            throw new FileAlreadyExistsException(root.toString(), null, "this folder is already a container");
        }
        Files.createDirectories(root);
        try (var entries = Files.list(root)) {
            if (entries.findAny().isPresent()) {
                throw new FileAlreadyExistsException(
                        root.toString(), null, "cannot create a container in a folder that is not empty");
            }
        }
        for (String dir : List.of(LooseFiles.FOLDER, PackFiles.FOLDER, Sandbox.FOLDER)) {
            Files.createDirectory(root.resolve(dir));
        }
        new PackIndex(root, true, null).close();
        // config.json is written last: its presence marks a complete container.
        ConfigFile.write(root, config);
        return open(root);
    }

    /** Opens an existing container; says so when the folder is not one or is of an unknown format. */
    public static Container open(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            throw new NotAContainerException(root, "no such folder");
        }
        ContainerConfig config = ConfigFile.read(root);
        for (String dir : List.of(LooseFiles.FOLDER, PackFiles.FOLDER, Sandbox.FOLDER)) {
            if (!Files.isDirectory(root.resolve(dir))) {
                throw new NotAContainerException(root, "its " + dir + "/ folder is missing");
            }
        }
        if (!Files.isRegularFile(root.resolve(PackIndex.FILE))) {
            throw new NotAContainerException(root, "its pack index " + PackIndex.FILE + " is missing");
        }
        ContainerParts parts = ContainerParts.open(root, config);
        parts.sandbox().cleanLeftovers();
        return new Container(parts);
    }

    /**
     * Creates a container in a bucket (under a prefix that holds no objects yet) and opens it. Needs the
     * AWS SDK on the class path (see {@link S3Location}).
     */
    public static Container init(S3Location location, ContainerConfig config) throws IOException {
        return opened(S3Parts.init(location, config));
    }

    /** Opens a container in a bucket; this host's copy of its index is brought up to date from the bucket. */
    public static Container open(S3Location location) throws IOException {
        return opened(S3Parts.open(location));
    }

    private static Container opened(ContainerParts parts) throws IOException {
        try {
            parts.cache().refresh();
            return new Container(parts);
        } catch (IOException | RuntimeException e) {
            parts.close();
            throw e;
        }
    }

    /** Where the container is: its folder, or {@code s3://bucket/prefix}. */
    public String location() {
        return parts.location();
    }

    /** The pieces, for tests in this package. */
    ContainerParts parts() {
        return parts;
    }

    /** The container's folder; of a container in a bucket, this host's cache folder for it. */
    public Path root() {
        return parts.root();
    }

    public ContainerConfig config() {
        return parts.config();
    }

    // ---- writes

    /** Stores content as a loose object (durable when this returns) and returns its key. */
    public ObjectKey put(byte[] content) throws IOException {
        ObjectKey key = Sha256.keyOf(content);
        LooseObjects.Found found = found(key);
        if (found != LooseObjects.Found.HELD) {
            parts.loose().write(key, content, found == LooseObjects.Found.MARKED);
        }
        return key;
    }

    /** Streams content of any size into a loose object, in bounded memory, and returns its key. */
    public ObjectKey put(InputStream content) throws IOException {
        return parts.loose().write(content, key -> {
            try {
                return found(key);
            } catch (IOException e) {
                // written as if marked, the one way that is safe whatever the store holds: a duplicate
                // costs space, never correctness
                return LooseObjects.Found.MARKED;
            }
        });
    }

    /**
     * Whether a put may count on the copy the container holds instead of writing one. Not when the key is
     * marked pending deletion: a new loose copy, young, is what keeps a {@link #sweep} from deleting it.
     * The view is taken before the loose file is looked for: a sweep removes the loose file before the
     * key's mark, so a view without the mark finds the file gone too.
     */
    private LooseObjects.Found found(ObjectKey key) throws IOException {
        IndexCache.Snapshot s = parts.cache().recent();
        if (s.marked(key)) {
            return LooseObjects.Found.MARKED;
        }
        return s.find(key) != null || parts.loose().exists(key) ? LooseObjects.Found.HELD : LooseObjects.Found.MISSING;
    }

    /** Starts a bulk write straight to packs, compressing where it pays with {@code compression}. */
    public PackBatch openPackBatch(Compression compression) throws IOException {
        return new PackBatch(parts.openWriter("write to packs", false), compression);
    }

    /** Writes all contents straight to packs in one batch; returns their keys in the order given. */
    public List<ObjectKey> putAllToPacks(List<byte[]> contents, Compression compression) throws IOException {
        try (PackBatch batch = openPackBatch(compression)) {
            List<ObjectKey> keys = batch.addAll(contents);
            batch.commit();
            return keys;
        }
    }

    /** Streams one object straight into a pack. */
    public ObjectKey putToPack(InputStream content, Compression compression) throws IOException {
        try (PackBatch batch = openPackBatch(compression)) {
            ObjectKey key = batch.add(content);
            batch.commit();
            return key;
        }
    }

    // ---- reads

    /** The content of an object. */
    public byte[] get(ObjectKey key) throws IOException {
        return reads.get(key);
    }

    /** A stream of an object's content, for objects of any size. */
    public InputStream open(ObjectKey key) throws IOException {
        return reads.open(key);
    }

    /**
     * Reads many objects in as few disk reads as possible and hands each to {@code consumer}, in disk order.
     * Duplicated keys are delivered once. Missing keys are reported together, by an
     * {@link ObjectNotFoundException}, after every found object was delivered.
     */
    public void getAll(Collection<ObjectKey> keys, ObjectConsumer consumer) throws IOException {
        reads.getAll(keys, consumer);
    }

    /** As {@link #getAll(Collection, ObjectConsumer)}, collected in a map. */
    public Map<ObjectKey, byte[]> getAll(Collection<ObjectKey> keys) throws IOException {
        Map<ObjectKey, byte[]> out = new HashMap<>(keys.size() * 2);
        reads.getAll(keys, out::put);
        return out;
    }

    /** As {@link #getAll(Collection, ObjectConsumer)}, with each object as a stream (for objects of any size). */
    public void streamAll(Collection<ObjectKey> keys, ObjectStreamConsumer consumer) throws IOException {
        reads.streamAll(keys, consumer);
    }

    /**
     * Where the object's content lies as stored, for reading it with the file system's own means
     * (sendfile); empty when it is stored compressed, whose stored bytes are not its content. The
     * place holds when this returns: packing, cleaning or repacking may move the bytes later, so use
     * it at once, and take a missing file for a moved object ({@link #open} finds it again).
     */
    public Optional<ObjectRegion> region(ObjectKey key) throws IOException {
        return reads.region(key);
    }

    public boolean contains(ObjectKey key) throws IOException {
        return reads.contains(key);
    }

    /** The keys among {@code keys} that the container holds. */
    public Set<ObjectKey> existing(Collection<ObjectKey> keys) throws IOException {
        return reads.existing(keys);
    }

    /** Size and place of an object. */
    public ObjectMeta meta(ObjectKey key) throws IOException {
        return reads.meta(key);
    }

    /** Size and place of the keys that exist; missing ones are left out. */
    public Map<ObjectKey, ObjectMeta> metas(Collection<ObjectKey> keys) throws IOException {
        return reads.metas(keys);
    }

    /** Calls {@code each} once for every object key, streaming (never all keys in memory at once). */
    public void forEachKey(Consumer<ObjectKey> each) throws IOException {
        reads.forEachKey(each);
    }

    // ---- maintenance

    /** Copies every loose object into packs with the configured compression; loose copies stay until
     * {@link #cleanStorage}. */
    public PackingReport packAllLoose() throws IOException {
        return packAllLoose(parts.config().packCompression());
    }

    public PackingReport packAllLoose(Compression compression) throws IOException {
        return maintenance.packAllLoose(compression);
    }

    /** Removes loose copies of packed objects, leftovers of crashed writers, and optionally compacts the index. */
    public CleaningReport cleanStorage(boolean vacuum) throws IOException {
        return maintenance.cleanStorage(vacuum);
    }

    /** Rewrites packs that hold deleted objects' bytes, keeping each object's compression. */
    public RepackReport repack() throws IOException {
        return maintenance.repack(null);
    }

    /** Rewrites every pack, storing each object with {@code compression} where it pays. */
    public RepackReport repack(Compression compression) throws IOException {
        return maintenance.repack(compression);
    }

    /**
     * Deletes objects at once (packed bytes are reclaimed by the next {@link #repack()}); returns how many
     * existed. Only for objects nobody may be storing again right now: otherwise use {@link #sweep}.
     */
    public int delete(Collection<ObjectKey> keys) throws IOException {
        return maintenance.delete(keys);
    }

    /** Reads the keys that something outside the container refers to, for {@link #sweep}. */
    @FunctionalInterface
    public interface References<E extends Exception> {
        Set<ObjectKey> read() throws E;
    }

    /**
     * Deletes the objects {@code references} does not name, in two phases, safely while other threads
     * and processes store objects: a run marks each unreferenced object pending deletion, and a later run
     * deletes it if it was marked more than {@code grace} ago, is still unreferenced and has no loose copy
     * written within the grace. A put of a marked object writes a new loose copy instead of counting on the
     * marked one, and a pack batch unmarks it. {@code grace} must exceed how long a caller may take between
     * storing an object and committing the reference to it. With {@code dryRun} nothing changes and the
     * report says what would be done. Takes the pack lock to decide and apply, not to read the references.
     */
    public <E extends Exception> SweepReport sweep(References<E> references, Duration grace, boolean dryRun)
            throws IOException, E {
        return new Sweep(parts).run(references, grace, dryRun);
    }

    /**
     * Copies the container, consistently while writers go on, into {@code target} (an empty or missing
     * folder), hard-linking the files that are unchanged since {@code previous} (an earlier copy, or null).
     * Holds the pack lock throughout, so it fails with {@link ContainerLockedException} while a packer runs.
     * {@code progress} hears the name of each part as it starts.
     */
    public CopyReport copyTo(Path target, Path previous, Consumer<String> progress) throws IOException {
        return new StoreCopy(parts).run(target, previous, progress);
    }

    public ContainerStats stats() throws IOException {
        return new Stats(parts).collect();
    }

    /** Rehashes every object and checks index, packs and loose files against each other. */
    public ValidationReport validate() throws IOException {
        return new Validator(parts).run();
    }

    @Override
    public void close() throws IOException {
        parts.close();
    }
}
