package dev.cairn.storage.hash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

import org.bouncycastle.crypto.digests.Blake2bDigest;
import org.junit.jupiter.api.Test;

/** The byte format, spelled out: a tag, a length as a varint (one byte below 128), the content. */
class CanonicalFormTest {

    private static final HexFormat HEX = HexFormat.of();

    private static String blake2b256(byte[] input) {
        Blake2bDigest digest = new Blake2bDigest(256);
        digest.update(input, 0, input.length);
        byte[] out = new byte[32];
        digest.doFinal(out, 0);
        return HEX.formatHex(out);
    }

    /** Hex with spaces and {@code <ascii>} runs, so expected bytes read like the format. */
    private static byte[] bytes(String... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String part : parts) {
            for (String token : part.trim().split("\\s+")) {
                if (token.startsWith("<") && token.endsWith(">")) {
                    out.writeBytes(token.substring(1, token.length() - 1).getBytes(StandardCharsets.UTF_8));
                } else {
                    out.writeBytes(HEX.parseHex(token));
                }
            }
        }
        return out.toByteArray();
    }

    private static byte[] written(Consumer<CanonicalWriter> write) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CanonicalWriter writer = new CanonicalWriter(out::write);
        write.accept(writer);
        writer.flush();
        return out.toByteArray();
    }

    @Test
    void blake2b256MatchesTheReferenceVectors() {
        // hashlib.blake2b(b'abc', digest_size=32) and of b'' (RFC 7693 parameters, 32-byte digest)
        assertEquals(
                "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319",
                blake2b256("abc".getBytes(StandardCharsets.US_ASCII)));
        assertEquals("0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8", blake2b256(new byte[0]));
    }

    @Test
    void intNodeIsSpelledOutByteForByte() {
        byte[] expected = bytes(
                "53 11 <cairn-node-hash/1>", // S, 17 bytes: the version
                "4d 06", // M, 6 entries: the node
                "0a <attributes> 4d 01", //   attributes: M, 1 entry
                "    05 <value> 49 01 01", //     value: I, 1 byte, 1
                "08 <computer> 4e", //   computer: N
                "05 <files> 4d 01 01 <o> 4d 00", //   files: {"o": {}}
                "06 <inputs> 4d 00", //   inputs: {}
                "09 <node_type> 53 12 <data.core.int.Int.>", //   node_type: S, 18 bytes
                "0c <process_type> 4e"); //   process_type: N
        HashInput node = ExampleNodes.integer(1);
        assertArrayEquals(expected, NodeHasher.canonicalBytes(node));
        // The same digest computed by Python's hashlib over these bytes:
        assertEquals("328e70ca7cd066b15173b822e747bc7d46ed1e5243ed51e6804e577abc9d5f67", NodeHasher.hash(node));
        assertEquals(blake2b256(expected), NodeHasher.hash(node));
    }

    @Test
    void processNodeCarriesComputerProcessTypeAndInputs() {
        String inputHash = "ab".repeat(32);
        HashInput node = new HashInput(
                "process.calculation.calcfunction.CalcFunctionNode.",
                "m:add",
                Map.of(),
                Map.of(),
                UUID.fromString("00112233-4455-6677-8899-aabbccddeeff"),
                Map.of("x", inputHash));
        byte[] expected = bytes(
                "53 11 <cairn-node-hash/1> 4d 06",
                "0a <attributes> 4d 00",
                "08 <computer> 55 00112233445566778899aabbccddeeff",
                "05 <files> 4d 01 01 <o> 4d 00",
                "06 <inputs> 4d 01 01 <x> 53 40 <" + inputHash + ">",
                "09 <node_type> 53 32 <process.calculation.calcfunction.CalcFunctionNode.>",
                "0c <process_type> 53 05 <m:add>");
        assertArrayEquals(expected, NodeHasher.canonicalBytes(node));
    }

    @Test
    void filesAreWrittenAsANormalTree() {
        String key = "0f".repeat(32);
        HashInput node = HashInput.ofData(
                "data.core.folder.FolderData.",
                Map.of(),
                Map.of("o", Map.of("b", Map.of("k", key), "a", Map.of())),
                null);
        byte[] expected = bytes(
                "53 11 <cairn-node-hash/1> 4d 06",
                "0a <attributes> 4d 00",
                "08 <computer> 4e",
                "05 <files> 4d 01 01 <o> 4d 02",
                "    01 <a> 4d 01 01 <o> 4d 00", // {} is written {"o": {}}
                "    01 <b> 4d 01 01 <k> 53 40 <" + key + ">", // names in order
                "06 <inputs> 4d 00",
                "09 <node_type> 53 1c <data.core.folder.FolderData.>",
                "0c <process_type> 4e");
        assertArrayEquals(expected, NodeHasher.canonicalBytes(node));
    }

    @Test
    void scalarsAreTaggedWithLengths() {
        assertArrayEquals(bytes("4e"), written(CanonicalWriter::writeNull));
        assertArrayEquals(bytes("42 01"), written(w -> w.writeBoolean(true)));
        assertArrayEquals(bytes("42 00"), written(w -> w.writeBoolean(false)));
        assertArrayEquals(bytes("49 01 00"), written(w -> w.writeInteger(0)));
        assertArrayEquals(bytes("49 01 7f"), written(w -> w.writeInteger(127)));
        assertArrayEquals(bytes("49 02 0080"), written(w -> w.writeInteger(128)));
        assertArrayEquals(bytes("49 01 ff"), written(w -> w.writeInteger(-1)));
        assertArrayEquals(bytes("49 01 80"), written(w -> w.writeInteger(-128)));
        assertArrayEquals(bytes("49 08 8000000000000000"), written(w -> w.writeInteger(Long.MIN_VALUE)));
        assertArrayEquals(
                bytes("49 09 010000000000000000"), written(w -> w.writeInteger(BigInteger.ONE.shiftLeft(64))));
        assertArrayEquals(bytes("46 01 03 01 ff"), written(w -> w.writeFloat(0.3))); // 3 * 10^-1
        assertArrayEquals(bytes("46 01 01 01 00"), written(w -> w.writeFloat(1.0))); // 1 * 10^0
        assertArrayEquals(bytes("46 01 00 01 00"), written(w -> w.writeFloat(-0.0))); // 0 * 10^0
        assertArrayEquals(bytes("46 02 cfc7 01 ff"), written(w -> w.writeFloat(-1234.5))); // -12345 * 10^-1
        assertArrayEquals(bytes("46 01 02 01 00"), written(w -> w.writeFloat(new BigDecimal("2.00"))));
        assertArrayEquals(bytes("46 06 3e4428b656c8 01 d2"), written(w -> w.writeFloat(6.8462461736648e-33)));
        assertArrayEquals(
                bytes("46 01 01 04 80000001"), // 1 * 10^-(2^31-1)
                written(w -> w.writeFloat(new BigDecimal(BigInteger.ONE, Integer.MAX_VALUE))));
        assertArrayEquals(bytes("53 00"), written(w -> w.writeString("")));
        assertArrayEquals(bytes("53 07 <Grüße>"), written(w -> w.writeString("Grüße")));
        assertArrayEquals(bytes("53 04 f09f8fa0"), written(w -> w.writeString("\uD83C\uDFE0")));
        assertArrayEquals(bytes("55 0000000000000001 ffffffffffffffff"), written(w -> w.writeUuid(new UUID(1, -1))));
        assertArrayEquals(bytes("4c 02 4e 4e"), written(w -> {
            w.writeListHeader(2);
            w.writeNull();
            w.writeNull();
        }));
        assertArrayEquals(bytes("4d 01 01 <a> 4e"), written(w -> {
            w.writeMapHeader(1);
            w.writeKey("a");
            w.writeNull();
        }));
    }

    @Test
    void integerBytesAreThoseOfBigInteger() {
        long[] samples = {0, 1, -1, 255, 256, -129, -32768, 32767, 1L << 40, -(1L << 40), Long.MAX_VALUE, Long.MIN_VALUE
        };
        for (long v : samples) {
            byte[] two = BigInteger.valueOf(v).toByteArray();
            byte[] expected = new byte[2 + two.length];
            expected[0] = 'I';
            expected[1] = (byte) two.length;
            System.arraycopy(two, 0, expected, 2, two.length);
            assertArrayEquals(expected, written(w -> w.writeInteger(v)), () -> "for " + v);
            assertArrayEquals(expected, written(w -> w.writeInteger(BigInteger.valueOf(v))), () -> "for " + v);
        }
    }

    /** Unsigned LEB128, written out independently of the writer. */
    private static byte[] varint(int n) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        do {
            int low = n % 128;
            n /= 128;
            out.write(n > 0 ? low + 128 : low);
        } while (n > 0);
        return out.toByteArray();
    }

    @Test
    void lengthsAreUnsignedLeb128Varints() {
        assertArrayEquals(bytes("4c 7f"), written(w -> w.writeListHeader(127)));
        assertArrayEquals(bytes("4c 8001"), written(w -> w.writeListHeader(128)));
        assertArrayEquals(bytes("4c ac02"), written(w -> w.writeListHeader(300)));
        assertArrayEquals(bytes("4d ffffffff07"), written(w -> w.writeMapHeader(Integer.MAX_VALUE)));
        assertArrayEquals(bytes("53 7f <" + "a".repeat(127) + ">"), written(w -> w.writeString("a".repeat(127))));
        assertArrayEquals(bytes("53 8001 <" + "a".repeat(128) + ">"), written(w -> w.writeString("a".repeat(128))));
        assertArrayEquals(bytes("53 c801 <" + "a".repeat(200) + ">"), written(w -> w.writeString("a".repeat(200))));
        assertArrayEquals(
                bytes("53 8001 <" + "a".repeat(126) + "é>"), written(w -> w.writeString("a".repeat(126) + "é")));
        assertArrayEquals(varint(300), bytes("ac02"));
    }

    @Test
    void longStringsAndValuesCrossTheStagingBufferIntact() {
        String ascii = "x".repeat(5000);
        String mixed = "é🧪a".repeat(1500);
        byte[] viaWriter = written(w -> {
            w.writeString(ascii);
            w.writeString(mixed);
            w.writeInteger(BigInteger.ONE.shiftLeft(20_000));
        });
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (String s : new String[] {ascii, mixed}) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            expected.write('S');
            expected.writeBytes(varint(utf8.length));
            expected.writeBytes(utf8);
        }
        byte[] big = BigInteger.ONE.shiftLeft(20_000).toByteArray();
        expected.write('I');
        expected.writeBytes(varint(big.length));
        expected.writeBytes(big);
        assertArrayEquals(expected.toByteArray(), viaWriter);
    }
}
