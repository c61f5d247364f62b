package dev.cairn.cli.archive;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.JsonTrees;

/**
 * Cairn's archive format as far as this host reads it ({@code docs/archive-format.md}): 10 magic bytes, the
 * version as a u32, then frames of {@code type:u8 stored:u32 raw:u32 payload}, the first the header (JSON).
 */
final class CairnFrames {

    static final byte[] MAGIC = {(byte) 0x89, 'C', 'A', 'I', 'R', 'N', '\r', '\n', 0x1a, '\n'};
    static final int VERSION = 1;
    static final int HEAD = 9;
    static final int HEADER = 1;
    static final int PART = 2;
    static final int CHUNK = 3;
    static final int END = 4;
    static final int TRAILER = 5;
    /** The largest payload the format allows: a bound on what one frame can make this allocate. */
    static final int MAX_PAYLOAD = 16 << 20;

    private CairnFrames() {}

    static boolean isCairn(byte[] start) {
        return start.length >= MAGIC.length && Arrays.equals(start, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
    }

    /** The header of the archive {@code in} starts with, as the server answers headers. */
    static ObjectNode readHeader(DataInputStream in, String file) throws IOException {
        try {
            byte[] magic = new byte[MAGIC.length];
            in.readFully(magic);
            if (!isCairn(magic)) {
                throw invalid(file + " is not a Cairn archive: it does not start with the format's magic bytes");
            }
            int version = in.readInt();
            if (version != VERSION) {
                throw invalid(
                        file + " is of format version " + version + "; this cairn reads version " + VERSION + " only");
            }
            int type = in.readUnsignedByte();
            int stored = in.readInt();
            in.readInt();
            if (type != HEADER || stored < 0 || stored > MAX_PAYLOAD) {
                throw invalid(file + " is corrupt: its first frame is not the header");
            }
            byte[] payload = new byte[stored];
            in.readFully(payload);
            return header(payload, file);
        } catch (EOFException e) {
            throw invalid(file + " is truncated: it ends inside the header");
        }
    }

    /** A header frame's JSON in the server's shape: format {@code cairn}, version as text. */
    static ObjectNode header(byte[] payload, String file) {
        JsonNode json;
        try {
            json = JsonTrees.parse(new String(payload, StandardCharsets.UTF_8));
        } catch (JacksonException e) {
            throw invalid(file + " is corrupt: its header is not JSON");
        }
        if (!(json instanceof ObjectNode header) || !(header.get("counts") instanceof ObjectNode)) {
            throw invalid(file + " is corrupt: its header is no JSON object with counts");
        }
        ObjectNode out = JsonTrees.object();
        out.put("format", "cairn");
        out.put("version", header.path("version").asString(String.valueOf(VERSION)));
        out.set("producer", header.get("producer"));
        out.set("created", header.get("created"));
        out.set("parameters", header.get("parameters"));
        out.set("counts", header.get("counts"));
        return out;
    }

    static CliException invalid(String message) {
        return CliException.usage(message);
    }
}
