package dev.cairn.storage.objects;

import java.util.UUID;

/**
 * A container's settings, kept in its {@code config.json}.
 *
 * @param containerId   a UUID naming this container (copies keep it; a new container gets a new one)
 * @param packSizeTarget a pack is closed and the next one started once it passes this many bytes
 * @param packCompression the compression {@link Container#packAllLoose()} uses when none is given
 * @param syncPacks     fsync pack files before their index entries are committed (off trades crash safety
 *                      of the newest packed objects for speed; the index never points past synced bytes
 *                      when on)
 * @param readGapLimit  bulk reads merge neighbouring objects of a pack into one read while the gap between
 *                      them is at most this many bytes
 * @param readBlockSize the largest single read a bulk read issues (objects larger than this are read alone)
 */
public record ContainerConfig(
        String containerId,
        long packSizeTarget,
        Compression packCompression,
        boolean syncPacks,
        int readGapLimit,
        int readBlockSize) {

    /** The layout version written by this code; opening a container of another version fails. */
    public static final int FORMAT_VERSION = 1;

    public static final String HASH_ALGORITHM = "sha256";
    public static final int LOOSE_PREFIX_LENGTH = 2;

    public ContainerConfig {
        try {
            UUID.fromString(containerId);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("containerId must be a UUID, not '" + containerId + "'");
        }
        if (packSizeTarget < 1) {
            throw new IllegalArgumentException("packSizeTarget must be positive, not " + packSizeTarget);
        }
        if (packCompression == null) {
            throw new IllegalArgumentException("packCompression must be one of none, zlib, zstd");
        }
        if (readGapLimit < 0) {
            throw new IllegalArgumentException("readGapLimit must be zero or more, not " + readGapLimit);
        }
        if (readBlockSize < 4096) {
            throw new IllegalArgumentException("readBlockSize must be at least 4096, not " + readBlockSize);
        }
    }

    /** 4 GiB packs, no compression by default, packs synced, 64 KiB gaps merged, reads of up to 8 MiB. */
    public static ContainerConfig defaults() {
        return new ContainerConfig(UUID.randomUUID().toString(), 4L << 30, Compression.NONE, true, 4 << 10, 8 << 20);
    }

    /**
     * The defaults for a container in a bucket: 256 MiB packs, 1 MiB gaps merged, ranged GETs of up to
     * 16 MiB. A pack is written whole (S3 cannot append) from a local file, and a repack rewrites whole packs,
     * so packs stay far smaller than on a disk; a ranged GET costs a round trip, worth reading about a
     * megabyte of gap to save, where a disk read is worth 4 KiB. See the object store's documentation for
     * the measurements.
     */
    public static ContainerConfig bucketDefaults() {
        return defaults()
                .withPackSizeTarget(256L << 20)
                .withReadGapLimit(1 << 20)
                .withReadBlockSize(16 << 20);
    }

    public ContainerConfig withPackSizeTarget(long bytes) {
        return new ContainerConfig(containerId, bytes, packCompression, syncPacks, readGapLimit, readBlockSize);
    }

    public ContainerConfig withPackCompression(Compression compression) {
        return new ContainerConfig(containerId, packSizeTarget, compression, syncPacks, readGapLimit, readBlockSize);
    }

    public ContainerConfig withSyncPacks(boolean sync) {
        return new ContainerConfig(containerId, packSizeTarget, packCompression, sync, readGapLimit, readBlockSize);
    }

    public ContainerConfig withReadGapLimit(int bytes) {
        return new ContainerConfig(containerId, packSizeTarget, packCompression, syncPacks, bytes, readBlockSize);
    }

    public ContainerConfig withReadBlockSize(int bytes) {
        return new ContainerConfig(containerId, packSizeTarget, packCompression, syncPacks, readGapLimit, bytes);
    }
}
