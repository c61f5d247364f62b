package dev.cairn.storage.objects;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Rehashes every object and checks that the index, the packs and the loose files agree. Problems name
 * the damaged keys; leftovers of interrupted writers (bytes past a pack's committed end, unknown pack
 * files, sandbox files) are not problems, since the next packer or {@code cleanStorage} removes them.
 */
final class Validator {

    private final ContainerParts parts;
    private final List<ValidationReport.Problem> problems = new ArrayList<>();
    private long checked;

    Validator(ContainerParts parts) {
        this.parts = parts;
    }

    ValidationReport run() throws IOException {
        String integrity = parts.index().integrityCheck();
        if (!"ok".equals(integrity)) {
            problem(null, PackIndex.FILE, "SQLite reports: " + integrity);
        }
        Map<Integer, Long> committed = parts.index().packSizes();
        Map<Integer, Long> onDisk = parts.packs().stored();
        List<PackEntry> entries = new ArrayList<>();
        parts.cache().refresh().forEach(entries::add);
        BulkReader.sortByPosition(entries);
        List<PackEntry> readable = new ArrayList<>(entries.size());
        PackEntry previous = null;
        for (PackEntry e : entries) {
            Long size = committed.get(e.pack());
            Long actual = onDisk.get(e.pack());
            if (size == null || actual == null) {
                problem(
                        e.key(),
                        packName(e.pack()),
                        size == null ? "its pack is not in the index" : "its pack file is missing");
            } else if (e.end() > size || e.end() > actual) {
                problem(
                        e.key(),
                        packName(e.pack()),
                        "it ends at " + e.end() + ", past the pack's end at " + Math.min(size, actual));
            } else if (previous != null
                    && previous.pack() == e.pack()
                    && e.length() > 0
                    && e.offset() < previous.end()) {
                problem(e.key(), packName(e.pack()), "it overlaps object " + previous.key());
            } else {
                readable.add(e);
            }
            previous = e;
        }
        for (Map.Entry<Integer, Long> p : committed.entrySet()) {
            Long actual = onDisk.get(p.getKey());
            if (actual != null && actual < p.getValue()) {
                problem(
                        null,
                        packName(p.getKey()),
                        "the file has " + actual + " bytes, the index committed " + p.getValue());
            }
        }
        checkPacked(readable);
        checkLoose();
        return new ValidationReport(checked, problems);
    }

    /** Rehashes the packed objects, the two halves (by position) on two threads. */
    private void checkPacked(List<PackEntry> entries) throws IOException {
        int half = entries.size() / 2;
        List<OrderedWork.Task<Long>> halves = List.of(
                () -> checkPart(new ArrayList<>(entries.subList(0, half))),
                () -> checkPart(new ArrayList<>(entries.subList(half, entries.size()))));
        OrderedWork.run(halves, 2, n -> checked += n);
    }

    private long checkPart(List<PackEntry> entries) throws IOException {
        MessageDigest digest = Sha256.newDigest();
        long[] count = {0};
        try (Decompressor d = new Decompressor()) {
            parts.bulkReader()
                    .read(
                            entries,
                            (e, block, off) -> {
                                count[0]++;
                                int len = (int) e.length();
                                if (e.compression() == Compression.NONE) {
                                    digest.update(block.slice(off, len));
                                    expect(e, digest.digest(), len);
                                } else {
                                    try {
                                        byte[] raw = d.decompress(
                                                e.key(),
                                                e.compression(),
                                                BulkReader.copy(e, block, off),
                                                0,
                                                len,
                                                e.size());
                                        expect(e, digest.digest(raw), raw.length);
                                    } catch (CorruptObjectException c) {
                                        problem(e.key(), packName(e.pack()), c.getMessage());
                                    }
                                }
                            },
                            e -> {
                                count[0]++;
                                try (InputStream in =
                                        Decompressor.decompressing(e.compression(), parts.packs().stream(e))) {
                                    long n = hash(in, digest);
                                    expect(e, digest.digest(), n);
                                } catch (IOException c) {
                                    problem(
                                            e.key(),
                                            packName(e.pack()),
                                            "its stored bytes do not decode: " + c.getMessage());
                                }
                            });
        }
        return count[0];
    }

    private void expect(PackEntry e, byte[] digest, long size) {
        if (!ObjectKey.ofDigest(digest).equals(e.key())) {
            problem(
                    e.key(),
                    packName(e.pack()),
                    "its content (" + e.length() + " bytes at " + e.offset() + ") does not hash to its key");
        } else if (size != e.size()) {
            problem(e.key(), packName(e.pack()), "it has " + size + " bytes, the index says " + e.size());
        }
    }

    private void checkLoose() throws IOException {
        MessageDigest digest = Sha256.newDigest();
        List<ObjectKey> keys = new ArrayList<>();
        parts.loose().forEach(keys::add, bad -> problem(null, bad, "not a loose object's name"));
        for (ObjectKey k : keys) {
            try (InputStream in = parts.loose().open(k)) {
                if (in == null) {
                    continue; // cleaned or deleted while we listed: not a problem
                }
                checked++;
                hash(in, digest);
                if (!ObjectKey.ofDigest(digest.digest()).equals(k)) {
                    problem(k, parts.loose().where(k), "its content does not hash to its name");
                }
            }
        }
    }

    private static long hash(InputStream in, MessageDigest digest) throws IOException {
        byte[] buf = new byte[64 << 10];
        long total = 0;
        int n;
        while ((n = in.read(buf)) > 0) {
            digest.update(buf, 0, n);
            total += n;
        }
        return total;
    }

    private synchronized void problem(ObjectKey key, String where, String what) {
        problems.add(new ValidationReport.Problem(key, where, what));
    }

    private String packName(int pack) {
        return parts.packs().where(pack);
    }
}
