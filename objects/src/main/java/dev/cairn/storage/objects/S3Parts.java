package dev.cairn.storage.objects;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * Opens and creates containers in a bucket: {@code config.json}, {@code loose/}, {@code packs/},
 * {@code index/log/} and {@code lock} under the location's prefix, and on this host a cache folder with
 * the copy of the index and the sandbox. The cache belongs to one container ({@code container-id} says
 * which): a cache of another is dropped and rebuilt from the bucket.
 */
final class S3Parts {

    private static final String MARKER = "container-id";

    private S3Parts() {}

    static ContainerParts init(S3Location location, ContainerConfig config) throws IOException {
        S3Bucket bucket = new S3Bucket(location);
        try {
            boolean[] any = {false};
            bucket.list(location.prefix(), null, o -> any[0] = true);
            if (any[0]) {
                throw new FileAlreadyExistsException(
                        location.toString(), null, "cannot create a container where the bucket holds objects already");
            }
            // created only if absent: of two processes creating the same container, one wins
            if (!bucket.createIfAbsent(
                    location.prefix() + ConfigFile.NAME,
                    ConfigFile.json(config).getBytes(StandardCharsets.UTF_8),
                    UUID.randomUUID().toString())) {
                throw new FileAlreadyExistsException(location.toString(), null, "this is already a container");
            }
            return open(location, bucket);
        } catch (IOException | RuntimeException e) {
            bucket.close();
            throw e;
        }
    }

    static ContainerParts open(S3Location location) throws IOException {
        S3Bucket bucket = new S3Bucket(location);
        try {
            return open(location, bucket);
        } catch (IOException | RuntimeException e) {
            bucket.close();
            throw e;
        }
    }

    private static ContainerParts open(S3Location location, S3Bucket bucket) throws IOException {
        byte[] json = bucket.get(location.prefix() + ConfigFile.NAME);
        if (json == null) {
            throw new NotAContainerException(location.toString(), "it has no " + ConfigFile.NAME);
        }
        ContainerConfig config = ConfigFile.parse(new String(json, StandardCharsets.UTF_8), location.toString());
        Path cache = location.cacheDir();
        prepareCache(cache, config.containerId());
        Sandbox sandbox = new Sandbox(cache);
        PackIndex index = new PackIndex(cache, config.syncPacks(), new IndexLog(bucket, location.prefix()));
        S3Packs packs = new S3Packs(bucket, location.prefix(), sandbox);
        ContainerParts parts = new ContainerParts(
                location.toString(),
                cache,
                config,
                sandbox,
                new S3LooseObjects(bucket, location.prefix(), sandbox),
                packs,
                index,
                new IndexCache(index),
                new S3Lock(bucket, location.prefix()),
                new BulkReader(packs, config),
                bucket);
        sandbox.cleanLeftovers();
        return parts;
    }

    /** Makes {@code cache} the cache of container {@code id}, dropping the index copy of another. */
    private static void prepareCache(Path cache, String id) throws IOException {
        Files.createDirectories(cache.resolve(Sandbox.FOLDER));
        Path marker = cache.resolve(MARKER);
        String held = Files.exists(marker)
                ? Files.readString(marker, StandardCharsets.UTF_8).strip()
                : null;
        if (!id.equals(held)) {
            for (String f : new String[] {PackIndex.FILE, PackIndex.FILE + "-wal", PackIndex.FILE + "-shm"}) {
                Files.deleteIfExists(cache.resolve(f));
            }
            Files.writeString(marker, id + "\n", StandardCharsets.UTF_8);
        }
    }
}
