package dev.cairn.storage.objects;

/**
 * How an object is stored in a pack. Compression is decided per object: an object that does not
 * shrink by at least {@link #WORTHWHILE_RATIO} is stored raw whatever was asked.
 */
public enum Compression {
    /** Raw bytes. */
    NONE(0),
    /** zlib (deflate with an Adler-32 trailer), level 1: what disk-objectstore writes. */
    ZLIB(1),
    /** Zstandard level 1 with a content checksum: several times faster than zlib at a similar ratio. */
    ZSTD(2);

    /** A compressed object is kept only when it is at most this fraction of the raw size. */
    static final double WORTHWHILE_RATIO = 0.9;

    private final int code;

    Compression(int code) {
        this.code = code;
    }

    /** The number stored in the pack index. */
    int code() {
        return code;
    }

    static Compression ofCode(int code) {
        return switch (code) {
            case 0 -> NONE;
            case 1 -> ZLIB;
            case 2 -> ZSTD;
            default -> throw new IllegalArgumentException("unknown compression code " + code + " in the pack index");
        };
    }

    /** Parses a configured name: none, zlib or zstd (any case). */
    public static Compression parse(String name) {
        for (Compression c : values()) {
            if (c.name().equalsIgnoreCase(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown compression '" + name + "'; use one of none, zlib, zstd");
    }
}
