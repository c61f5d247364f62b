package dev.cairn.storage.archive;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;

/**
 * The frames of Cairn's archive format ({@code docs/archive-format.md}): the magic, the version and
 * {@code type:u8 stored:u32 raw:u32 payload}, with the limits a reader holds a file to.
 */
final class Frames {

    static final byte[] MAGIC = {(byte) 0x89, 'C', 'A', 'I', 'R', 'N', '\r', '\n', 0x1a, '\n'};
    static final int VERSION = 1;

    static final int HEADER = 1;
    static final int PART = 2;
    static final int CHUNK = 3;
    static final int END = 4;
    static final int TRAILER = 5;

    /** What a writer puts in one chunk before compressing it. */
    static final int CHUNK_SIZE = 1 << 20;
    /** The largest payload a reader accepts, stored or raw: a bound on what one frame can make it allocate. */
    static final int MAX_PAYLOAD = 16 << 20;

    private Frames() {}

    /** A frame as read: its type, its payload as stored, and the length it has once decompressed. */
    record Frame(int type, byte[] payload, int raw) {}

    static void writeStart(DataOutputStream out) throws IOException {
        out.write(MAGIC);
        out.writeInt(VERSION);
    }

    static void write(DataOutputStream out, int type, byte[] payload, int stored, int raw) throws IOException {
        out.writeByte(type);
        out.writeInt(stored);
        out.writeInt(raw);
        out.write(payload, 0, stored);
    }

    /** Reads the magic and the version; fails on anything else, naming what it found. */
    static void readStart(DataInputStream in) throws IOException {
        byte[] magic = new byte[MAGIC.length];
        try {
            in.readFully(magic);
        } catch (EOFException e) {
            throw new InvalidArchiveException("not a Cairn archive: the file is shorter than the format's magic bytes");
        }
        if (!Arrays.equals(magic, MAGIC)) {
            throw new InvalidArchiveException("not a Cairn archive: it does not start with the format's magic bytes"
                    + (magic[0] == 'P' && magic[1] == 'K' ? " (it is a zip: an AiiDA archive is read as such)" : ""));
        }
        int version;
        try {
            version = in.readInt();
        } catch (EOFException e) {
            throw truncated("the format version");
        }
        if (version != VERSION) {
            throw new InvalidArchiveException("the archive is of format version " + version
                    + ", and this Cairn reads version " + VERSION + " only");
        }
    }

    /** Reads the next frame; {@code where} names what was expected, for the error on a truncated file. */
    static Frame read(DataInputStream in, String where) throws IOException {
        int type = in.read();
        if (type < 0) {
            throw truncated(where);
        }
        try {
            int stored = in.readInt();
            int raw = in.readInt();
            if (type < HEADER || type > TRAILER) {
                throw new InvalidArchiveException("corrupt archive: a frame of unknown type " + type + " at " + where);
            }
            if (stored < 0 || stored > MAX_PAYLOAD || raw < 0 || raw > MAX_PAYLOAD) {
                throw new InvalidArchiveException("corrupt archive: a frame at " + where + " claims " + stored
                        + " bytes stored and " + raw + " raw; at most " + MAX_PAYLOAD + " are allowed");
            }
            byte[] payload = new byte[stored];
            in.readFully(payload);
            return new Frame(type, payload, raw);
        } catch (EOFException e) {
            throw truncated(where);
        }
    }

    static InvalidArchiveException truncated(String where) {
        return new InvalidArchiveException("the archive is truncated: it ends in " + where);
    }

    static String name(int type) {
        return switch (type) {
            case HEADER -> "header";
            case PART -> "part start";
            case CHUNK -> "chunk";
            case END -> "part end";
            case TRAILER -> "trailer";
            default -> "frame of type " + type;
        };
    }
}
