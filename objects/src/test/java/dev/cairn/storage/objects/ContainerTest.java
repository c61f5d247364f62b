package dev.cairn.storage.objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The contract on a container in a folder, and what only a folder does: regions of files. */
class ContainerTest extends ContainerContractTest {

    @Override
    Container create(String name, ContainerConfig config) throws IOException {
        return Container.init(dir.resolve(name), config);
    }

    @Override
    Container reopen(String name) throws IOException {
        return Container.open(dir.resolve(name));
    }

    static byte[] read(ObjectRegion region) throws IOException {
        try (FileChannel ch = FileChannel.open(region.file(), StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate((int) region.length());
            while (buffer.hasRemaining() && ch.read(buffer, region.offset() + buffer.position()) > 0) {
                // read on until the region is in
            }
            return buffer.array();
        }
    }

    @Test
    void aRegionIsWhereTheContentLiesLooseOrPackedAndNoneWhenCompressed() throws IOException {
        byte[] content = ContainerContractTest.randomObjects(1, 5000, 3).getFirst();
        ObjectKey key = container.put(content);
        ObjectRegion loose = container.region(key).orElseThrow();
        assertEquals(0, loose.offset());
        assertArrayEquals(content, read(loose));
        container.put(bytes("a neighbour, so the object is not first in its pack"));
        container.packAllLoose(Compression.NONE);
        container.cleanStorage(false);
        ObjectRegion packed = container.region(key).orElseThrow();
        assertTrue(packed.file().startsWith(dir.resolve("c/packs")), packed.toString());
        assertArrayEquals(content, read(packed));
        ObjectKey text = container
                .putAllToPacks(List.of(bytes("compressible ".repeat(500))), Compression.ZSTD)
                .getFirst();
        assertTrue(container.meta(text).compressed());
        assertTrue(container.region(text).isEmpty());
        assertThrows(ObjectNotFoundException.class, () -> container.region(ObjectKey.of("0".repeat(64))));
    }
}
