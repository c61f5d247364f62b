package dev.cairn.storage.hash;

import java.io.ByteArrayOutputStream;
import java.util.HexFormat;
import java.util.Map;

import org.bouncycastle.crypto.digests.Blake2bDigest;

/**
 * The hash of a node: BLAKE2b with a 256-bit digest (no key, salt or personalization) over
 * the node's canonical form, as 64 lowercase hex characters.
 *
 * <h2>The canonical form, version {@value #FORMAT_VERSION}</h2>
 * Every value is a one-byte ASCII tag and its content; every length or count is an unsigned
 * LEB128 varint ({@code len}: 7 bits a byte, low bits first, high bit set on all but the last
 * byte, so one byte below 128):
 * <pre>
 * N                        null
 * B 00|01                  boolean
 * I len bytes              integer (Long, Integer, Short, Byte, BigInteger alike): shortest
 *                          two's complement, big-endian, as BigInteger.toByteArray
 * F len s len e            float (Double, Float, BigDecimal): the exact value rounded to 14
 *                          significant digits, half to even, as the decimal s * 10^e in lowest
 *                          terms (no trailing zero digit in s), s and e each as an integer's len
 *                          and bytes: 1.0 is (1, 0), 0.3 is (3, -1), -0.0 is (0, 0); NaN and
 *                          infinities refused
 * S len utf8               string (no unpaired surrogates)
 * U 16 bytes               UUID, most significant half first
 * L len value*             list
 * M len (len utf8 value)*  map with string keys, in the order of their UTF-8 bytes
 * </pre>
 * The stream is the string {@code "cairn-node-hash/1"} followed by the node as one map with
 * the keys {@code attributes} (map), {@code computer} (UUID or null), {@code files} (every
 * directory {@code {"o": {name: ...}}}, every file {@code {"k": "<sha256 hex>"}}),
 * {@code inputs} (map of link label to hash string), {@code node_type} (string) and
 * {@code process_type} (string or null). Any change to this form must change the version
 * string, so that a stored hash never silently means something else.
 */
public final class NodeHasher {

    /** The first value of every canonical stream. */
    public static final String FORMAT_VERSION = "cairn-node-hash/1";

    private static final int DIGEST_BITS = 256;

    private NodeHasher() {}

    /**
     * The node's hash, 64 lowercase hex characters.
     *
     * @throws IllegalArgumentException if an attribute value cannot be hashed (its type is not
     *         supported, a float is not finite, a string has an unpaired surrogate), naming its
     *         path, e.g. {@code attributes.cell[0][1]}
     */
    public static String hash(HashInput input) {
        Blake2bDigest digest = new Blake2bDigest(DIGEST_BITS);
        write(input, digest::update);
        byte[] out = new byte[DIGEST_BITS / 8];
        digest.doFinal(out, 0);
        return HexFormat.of().formatHex(out);
    }

    /** The canonical form itself, the bytes {@link #hash} digests; for inspection and tests. */
    public static byte[] canonicalBytes(HashInput input) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        write(input, bytes::write);
        return bytes.toByteArray();
    }

    private static void write(HashInput input, CanonicalWriter.Sink sink) {
        CanonicalWriter out = new CanonicalWriter(sink);
        out.writeString(FORMAT_VERSION);
        out.writeMapHeader(6); // keys in UTF-8 order
        out.writeKey("attributes");
        try {
            new AttributeWalker(out).writeMap(input.attributes());
        } catch (UnhashableValueException e) {
            throw e.at("attributes");
        }
        out.writeKey("computer");
        if (input.computerUuid() == null) {
            out.writeNull();
        } else {
            out.writeUuid(input.computerUuid());
        }
        out.writeKey("files");
        FileTree.write(out, input.files());
        out.writeKey("inputs");
        writeInputs(out, input.inputs());
        out.writeKey("node_type");
        out.writeString(input.nodeType());
        out.writeKey("process_type");
        if (input.processType() == null) {
            out.writeNull();
        } else {
            out.writeString(input.processType());
        }
        out.flush();
    }

    @SuppressWarnings("unchecked")
    private static void writeInputs(CanonicalWriter out, Map<String, String> inputs) {
        Map.Entry<String, String>[] entries =
                (Map.Entry<String, String>[]) inputs.entrySet().toArray(new Map.Entry<?, ?>[0]);
        Utf8Order.sortByKey(entries);
        out.writeMapHeader(entries.length);
        for (Map.Entry<String, String> entry : entries) {
            out.writeKey(entry.getKey());
            out.writeString(entry.getValue());
        }
    }
}
