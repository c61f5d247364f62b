package dev.cairn.storage.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexCacheTest {

    @TempDir
    Path dir;

    private static PackEntry entry(Random r, long w0) {
        return new PackEntry(
                ObjectKey.ofWords(w0, r.nextLong(), r.nextLong(), r.nextLong()),
                r.nextInt(3),
                r.nextInt(1 << 30),
                r.nextInt(1000),
                r.nextInt(2000),
                Compression.values()[r.nextInt(Compression.values().length)]);
    }

    @Test
    void aRefreshSeesCommitsOfThisIndexAndOfAnotherConnection() throws IOException {
        Random r = new Random(6);
        try (PackIndex index = new PackIndex(dir, false, null);
                PackIndex other = new PackIndex(dir, false, null)) {
            IndexCache cache = new IndexCache(index);
            PackEntry first = entry(r, r.nextLong());
            assertNull(cache.refresh().find(first.key()));
            assertNull(cache.refresh().find(first.key()), "nothing committed: the same answer");
            commit(index, first); // this process's writer
            assertEquals(first, cache.refresh().find(first.key()));
            PackEntry second = entry(r, r.nextLong());
            commit(other, second); // as another process would
            assertEquals(second, cache.refresh().find(second.key()));
            assertEquals(first, cache.refresh().find(first.key()));
        }
    }

    private static void commit(PackIndex index, PackEntry e) throws IOException {
        try (IndexTransaction tx = index.begin()) {
            tx.addSegment(List.of(e));
            tx.commit();
        }
    }

    @Test
    void findAllAgreesWithFindOnEveryKindOfKey() throws IOException {
        Random r = new Random(5);
        List<PackEntry> stored = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            stored.add(entry(r, r.nextLong()));
        }
        // keys that share their first word with a stored one: the look-up must compare the rest
        for (int i = 0; i < 5; i++) {
            stored.add(entry(r, stored.get(i).key().word(0)));
        }
        try (PackIndex index = new PackIndex(dir, false, null)) {
            try (IndexTransaction tx = index.begin()) {
                tx.addSegment(KeyOrder.sorted(stored));
                tx.commit();
            }
            IndexCache.Snapshot base = new IndexCache(index).refresh();
            List<PackEntry> added =
                    List.of(entry(r, r.nextLong()), entry(r, stored.get(7).key().word(0)));
            IndexCache.Snapshot withRecent = base.plus(added, base.epoch, base.seq);
            assertNotNull(withRecent.find(added.get(1).key()));

            List<ObjectKey> asked = new ArrayList<>();
            stored.forEach(e -> asked.add(e.key()));
            added.forEach(e -> asked.add(e.key()));
            asked.addAll(asked.subList(0, 100)); // asked twice
            for (int i = 0; i < 50; i++) {
                asked.add(entry(r, r.nextLong()).key()); // absent
                asked.add(entry(r, stored.get(i).key().word(0)).key()); // absent, first word present
            }
            Collections.shuffle(asked, r);
            for (IndexCache.Snapshot s : List.of(base, withRecent)) {
                PackEntry[] found = s.findAll(asked);
                assertEquals(asked.size(), found.length);
                for (int i = 0; i < asked.size(); i++) {
                    assertEquals(s.find(asked.get(i)), found[i], asked.get(i).hex());
                }
            }
            assertNull(base.findAll(List.of(added.get(0).key()))[0]);
            assertEquals(0, base.findAll(List.of()).length);
        }
    }
}
