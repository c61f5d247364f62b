package dev.cairn.storage.archive.aiida;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.cairn.storage.archive.ArchiveHeader;
import dev.cairn.storage.archive.ArchivePart;
import dev.cairn.storage.archive.ArchiveReader;
import dev.cairn.storage.objects.ObjectKey;

/**
 * Writes, or reads back, an AiiDA archive of {@code n} nodes in a JVM of its own (AiidaArchiveScaleIT
 * starts it with a small heap): {@code write FILE N} streams a chain of N nodes, N - 1 links and 1,000
 * files through {@link AiidaArchiveWriter}; {@code read FILE} reads every row and object through
 * {@link AiidaArchiveReader} and prints the header's counts and what it read, as
 * {@code part=header/read} pairs.
 */
public final class ScaleDriver {

    static final int OBJECTS = 1000;

    private ScaleDriver() {}

    public static void main(String[] args) throws IOException {
        if (args[0].equals("write")) {
            write(Path.of(args[1]), Integer.parseInt(args[2]));
        } else {
            read(Path.of(args[1]));
        }
    }

    static String uuid(long n) {
        return new UUID(0x5ca1_e000_0000_4000L, 0x8000_0000_0000_0000L | n).toString();
    }

    static byte[] content(int i) {
        return ("file " + i + "\n").getBytes(UTF_8);
    }

    private static void write(Path file, int n) throws IOException {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < OBJECTS; i++) {
            keys.add(SmallGraph.sha256(content(i)));
        }
        Map<ArchivePart, Long> counts = new EnumMap<>(ArchivePart.class);
        counts.put(ArchivePart.USERS, 1L);
        counts.put(ArchivePart.NODES, (long) n);
        counts.put(ArchivePart.LINKS, n - 1L);
        counts.put(ArchivePart.OBJECTS, (long) OBJECTS);
        try (AiidaArchiveWriter writer = new AiidaArchiveWriter(file)) {
            writer.begin(new ArchiveHeader("cairn", "1", "scale", Instant.now(), Map.of(), counts));
            for (ArchivePart part : ArchivePart.ROWS) {
                try (OutputStream out = writer.rows(part)) {
                    switch (part) {
                        case USERS -> out.write(("{\"email\":\"" + SmallGraph.EMAIL + "\"}\n").getBytes(UTF_8));
                        case NODES -> {
                            for (int i = 0; i < n; i++) {
                                String files =
                                        i < OBJECTS ? "{\"o\":{\"f.txt\":{\"k\":\"" + keys.get(i) + "\"}}}" : "{}";
                                String type = i % 2 == 0
                                        ? "data.core.int.Int."
                                        : "process.calculation.calcfunction.CalcFunctionNode.";
                                out.write(SmallGraph.node(uuid(i), type, "{\"value\":" + i + "}", files)
                                        .concat("\n")
                                        .getBytes(UTF_8));
                            }
                        }
                        case LINKS -> {
                            for (int i = 1; i < n; i++) {
                                String type = i % 2 == 1 ? "input_calc" : "create";
                                out.write((SmallGraph.link(uuid(i - 1), uuid(i), type, "l") + "\n").getBytes(UTF_8));
                            }
                        }
                        default -> {
                            // the other parts are empty
                        }
                    }
                }
            }
            for (int i = 0; i < OBJECTS; i++) {
                byte[] bytes = content(i);
                writer.object(ObjectKey.of(keys.get(i)), bytes.length, new ByteArrayInputStream(bytes));
            }
            writer.finish();
        }
        System.out.println("written " + n);
    }

    private static void read(Path file) throws IOException {
        Map<ArchivePart, Long> read = new EnumMap<>(ArchivePart.class);
        try (AiidaArchiveReader reader = AiidaArchiveReader.open(file)) {
            reader.read(new ArchiveReader.Visitor() {
                @Override
                public void rows(ArchivePart part, InputStream ndjson) throws IOException {
                    byte[] buffer = new byte[1 << 16];
                    long lines = 0;
                    int m;
                    while ((m = ndjson.read(buffer)) > 0) {
                        for (int i = 0; i < m; i++) {
                            if (buffer[i] == '\n') {
                                lines++;
                            }
                        }
                    }
                    read.put(part, lines);
                }

                @Override
                public void object(ObjectKey key, long size, InputStream content) throws IOException {
                    content.transferTo(OutputStream.nullOutputStream());
                    read.merge(ArchivePart.OBJECTS, 1L, Long::sum);
                }
            });
            StringBuilder out = new StringBuilder();
            for (ArchivePart part : ArchivePart.values()) {
                out.append(part.key())
                        .append('=')
                        .append(reader.header().count(part))
                        .append('/')
                        .append(read.getOrDefault(part, 0L))
                        .append(' ');
            }
            System.out.println(out.toString().strip());
        }
    }
}
