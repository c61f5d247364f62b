package dev.cairn.examples.demo;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.cairn.storage.objects.CleaningReport;
import dev.cairn.storage.objects.Compression;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.objects.ContainerStats;
import dev.cairn.storage.objects.ObjectKey;
import dev.cairn.storage.objects.ObjectMeta;
import dev.cairn.storage.objects.PackingReport;
import dev.cairn.storage.objects.RepackReport;
import dev.cairn.storage.objects.ValidationReport;

/**
 * Shows the object store at work on a real folder: every file stored (streamed, as loose objects), then
 * packed with compression, cleaned, read back in bulk and checked byte for byte, validated, partly
 * deleted and repacked.
 *
 * <pre>ObjectStoreDemo [FOLDER_TO_STORE] [CONTAINER_FOLDER]</pre>
 */
public final class ObjectStoreDemo {

    private ObjectStoreDemo() {}

    public static void main(String[] args) throws IOException {
        Path source = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        Path target = Path.of(args.length > 1 ? args[1] : "/tmp/cairn-demo/container")
                .toAbsolutePath()
                .normalize();
        if (target.startsWith(source)) {
            throw new IllegalArgumentException("the container " + target + " must not lie inside " + source);
        }
        Demos.delete(target);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(source)) {
            files = walk.filter(Files::isRegularFile)
                    .filter(Files::isReadable)
                    .sorted()
                    .toList();
        }
        System.out.printf("Storing the %,d files under %s in a new container at %s%n%n", files.size(), source, target);
        try (Container c = Container.init(target, ContainerConfig.defaults().withPackCompression(Compression.ZSTD))) {
            Map<ObjectKey, Path> stored = new LinkedHashMap<>();
            long t = System.nanoTime();
            long bytes = 0;
            for (Path f : files) {
                try (InputStream in = Files.newInputStream(f)) {
                    stored.putIfAbsent(c.put(in), f);
                }
                bytes += Files.size(f);
            }
            step(
                    "loose writes (streamed, fsynced)",
                    t,
                    "%,d files, %,d bytes, %,d distinct objects",
                    files.size(),
                    bytes,
                    stored.size());
            show(c.stats());

            t = System.nanoTime();
            PackingReport packed = c.packAllLoose();
            step("packAllLoose (zstd where it pays)", t, "%,d objects packed", packed.objectsPacked());
            t = System.nanoTime();
            CleaningReport cleaned = c.cleanStorage(true);
            step("cleanStorage", t, "%,d loose copies removed", cleaned.looseDeleted());
            show(c.stats());

            t = System.nanoTime();
            long[] checked = {0};
            c.getAll(stored.keySet(), (key, content) -> {
                try {
                    if (!Arrays.equals(content, Files.readAllBytes(stored.get(key)))) {
                        throw new IllegalStateException(key + " does not read back as " + stored.get(key));
                    }
                } catch (IOException e) {
                    // the file changed on disk since we stored it: not the store's doing
                }
                checked[0]++;
            });
            step("bulk read, compared with the files", t, "%,d objects equal", checked[0]);

            t = System.nanoTime();
            ValidationReport report = c.validate();
            step(
                    "validate (every object rehashed)",
                    t,
                    "%,d objects, %s",
                    report.objectsChecked(),
                    report.isValid() ? "no problems" : report.problems());

            ObjectKey first = stored.keySet().iterator().next();
            ObjectMeta meta = c.meta(first);
            System.out.printf("%nmeta of %s (%s):%n  %s%n%n", first, source.relativize(stored.get(first)), meta);

            List<ObjectKey> half = new ArrayList<>(stored.keySet()).subList(0, stored.size() / 2);
            t = System.nanoTime();
            int deleted = c.delete(half);
            step("delete half of the objects", t, "%,d deleted", deleted);
            t = System.nanoTime();
            RepackReport repacked = c.repack();
            step(
                    "repack",
                    t,
                    "%,d objects moved, packs %,d -> %,d bytes",
                    repacked.objectsMoved(),
                    repacked.bytesBefore(),
                    repacked.bytesAfter());
            show(c.stats());
            System.out.println("validate after repack: " + (c.validate().isValid() ? "no problems" : "PROBLEMS"));
        }
        System.out.println("\nThe container is left at " + target + " (config.json, loose/, packs/, packs.idx).");
    }

    private static void step(String what, long startNanos, String format, Object... args) {
        double ms = (System.nanoTime() - startNanos) / 1e6;
        System.out.printf("%-38s %9.1f ms   %s%n", what, ms, String.format(format, args));
    }

    private static void show(ContainerStats s) {
        System.out.printf(
                "    stats: %,d loose (%,d B), %,d packed (%,d B, stored in %,d B, %,d compressed), "
                        + "%d pack file(s) %,d B, index %,d B%n",
                s.looseObjects(),
                s.looseBytes(),
                s.packedObjects(),
                s.packedBytes(),
                s.packedStoredBytes(),
                s.compressedObjects(),
                s.packFiles(),
                s.packFileBytes(),
                s.indexBytes());
    }
}
