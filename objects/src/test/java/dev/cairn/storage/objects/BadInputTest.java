package dev.cairn.storage.objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class BadInputTest {

    @TempDir
    Path dir;

    @Test
    void openingAFolderThatIsNotAContainerSaysSo() throws IOException {
        Files.writeString(dir.resolve("notes.txt"), "hello");
        NotAContainerException e = assertThrows(NotAContainerException.class, () -> Container.open(dir));
        assertTrue(e.getMessage().contains("is not an object store container"), e.getMessage());
        assertTrue(e.getMessage().contains("config.json"), e.getMessage());
        NotAContainerException missing =
                assertThrows(NotAContainerException.class, () -> Container.open(dir.resolve("nowhere")));
        assertTrue(missing.getMessage().contains("no such folder"), missing.getMessage());
    }

    @Test
    void aContainerOfAnUnknownFormatVersionSaysSo() throws IOException {
        Path c = dir.resolve("c");
        Container.init(c, ContainerConfig.defaults()).close();
        Path config = c.resolve("config.json");
        Files.writeString(config, Files.readString(config).replace("\"formatVersion\": 1", "\"formatVersion\": 7"));
        UnsupportedContainerException e = assertThrows(UnsupportedContainerException.class, () -> Container.open(c));
        assertTrue(e.getMessage().contains("format version is 7"), e.getMessage());
    }

    @Test
    void aGarbledConfigSaysWhatIsWrong() throws IOException {
        Path c = dir.resolve("c");
        Container.init(c, ContainerConfig.defaults()).close();
        Files.writeString(c.resolve("config.json"), "{ \"formatVersion\": 1, ");
        NotAContainerException e = assertThrows(NotAContainerException.class, () -> Container.open(c));
        assertTrue(e.getMessage().contains("config.json is not valid"), e.getMessage());
    }

    @Test
    void initRefusesAnExistingContainerOrAFolderWithFiles() throws IOException {
        Path c = dir.resolve("c");
        Container.init(c, ContainerConfig.defaults()).close();
        assertThrows(FileAlreadyExistsException.class, () -> Container.init(c, ContainerConfig.defaults()));
        Files.writeString(dir.resolve("d.txt"), "x");
        assertThrows(FileAlreadyExistsException.class, () -> Container.init(dir, ContainerConfig.defaults()));
    }

    @Test
    void flippedBytesInAPackAreFoundByValidateWithTheDamagedKey() throws IOException {
        Path c = dir.resolve("c");
        try (Container container = Container.init(c, ContainerConfig.defaults())) {
            List<ObjectKey> keys = container.putAllToPacks(ContainerTest.randomObjects(50, 1000, 3), Compression.NONE);
            ObjectKey victim = keys.get(20);
            ObjectMeta meta = container.meta(victim);
            flip(c.resolve("packs/" + meta.pack()), meta.offset() + meta.length() / 2);
            ValidationReport report = container.validate();
            assertFalse(report.isValid());
            assertEquals(List.of(victim), report.damagedKeys());
            assertTrue(
                    report.problems().get(0).toString().contains("does not hash to its key"),
                    report.problems().toString());
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Compression.class,
            names = {"ZLIB", "ZSTD"})
    void readingADamagedCompressedObjectFailsNamingTheKey(Compression compression) throws IOException {
        Path c = dir.resolve("c");
        byte[] text = ("step 1 energy -12.345678 forces 0.001 0.002 0.003\n")
                .repeat(500)
                .getBytes(StandardCharsets.UTF_8);
        try (Container container = Container.init(c, ContainerConfig.defaults())) {
            ObjectKey key = container.putAllToPacks(List.of(text), compression).get(0);
            ObjectMeta meta = container.meta(key);
            assertEquals(compression, meta.compression());
            flip(c.resolve("packs/" + meta.pack()), meta.offset() + meta.length() / 2);
            CorruptObjectException single = assertThrows(CorruptObjectException.class, () -> container.get(key));
            assertEquals(key, single.key());
            assertTrue(single.getMessage().contains(key.hex()), single.getMessage());
            assertThrows(CorruptObjectException.class, () -> container.getAll(List.of(key)));
            assertThrows(IOException.class, () -> {
                try (InputStream in = container.open(key)) {
                    in.readAllBytes();
                }
            });
            assertEquals(List.of(key), container.validate().damagedKeys());
        }
    }

    @Test
    void aDamagedLooseObjectIsFoundByValidateAndNotPacked() throws IOException {
        Path c = dir.resolve("c");
        try (Container container = Container.init(c, ContainerConfig.defaults())) {
            ObjectKey good = container.put("good".getBytes(StandardCharsets.UTF_8));
            ObjectKey bad = container.put("bad".getBytes(StandardCharsets.UTF_8));
            Path file = c.resolve("loose")
                    .resolve(bad.hex().substring(0, 2))
                    .resolve(bad.hex().substring(2));
            Files.writeString(file, "tampered");
            assertEquals(List.of(bad), container.validate().damagedKeys());
            PackingReport packed = container.packAllLoose();
            assertEquals(1, packed.objectsPacked());
            assertEquals(List.of(bad), packed.damaged());
            assertArrayEquals("good".getBytes(StandardCharsets.UTF_8), container.get(good));
        }
    }

    @Test
    void configurationValuesAreChecked() {
        assertThrows(
                IllegalArgumentException.class, () -> ContainerConfig.defaults().withPackSizeTarget(0));
        assertThrows(
                IllegalArgumentException.class, () -> ContainerConfig.defaults().withReadBlockSize(10));
        assertThrows(
                IllegalArgumentException.class, () -> ContainerConfig.defaults().withReadGapLimit(-1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Compression.parse("lzma"));
        assertTrue(e.getMessage().contains("none, zlib, zstd"), e.getMessage());
    }

    static void flip(Path file, long position) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            ch.read(one, position);
            one.put(0, (byte) (one.get(0) ^ 0x5a)).rewind();
            ch.write(one, position);
        }
    }
}
