package dev.cairn.storage.db.internal;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.UUID;

import org.postgresql.copy.CopyIn;

import dev.cairn.storage.db.JsonText;

/**
 * Rows for {@code COPY … FROM STDIN} in PostgreSQL's text format, buffered and sent in
 * chunks so that a batch of any size streams with bounded memory. Chunks go straight to the
 * server, or to {@link CopyPipe}, which sends them from another thread while the next ones
 * are made.
 */
public final class CopyRows {

    static final int CHUNK = 1 << 20;

    /** Where full chunks go. */
    interface Sink {
        /** Takes {@code length} bytes of {@code chunk}; returns true when it keeps the array. */
        boolean accept(byte[] chunk, int length) throws SQLException;
    }

    private final Sink sink;
    private final CopyIn copy;
    private final StringBuilder row = new StringBuilder(4096);
    private byte[] buffer;
    private int used;
    private boolean rowStarted;

    /** Rows sent straight to the server. */
    public CopyRows(CopyIn copy) {
        this(copy, new byte[CHUNK]);
    }

    /**
     * Rows sent straight to the server through {@code buffer}, which the caller hands to one COPY after
     * another (a megabyte a COPY is most of what a stream of small batches allocates otherwise).
     */
    public CopyRows(CopyIn copy, byte[] buffer) {
        this.copy = copy;
        this.buffer = buffer;
        this.sink = (chunk, length) -> {
            copy.writeToCopy(chunk, 0, length);
            return false;
        };
    }

    CopyRows(Sink sink) {
        this.copy = null;
        this.sink = sink;
        this.buffer = new byte[CHUNK];
    }

    public CopyRows text(String value) {
        separator();
        escape(value, row);
        return this;
    }

    /** Appends {@code value} as a field of COPY's text format wants it; null is {@code \N}. */
    public static void escape(String value, StringBuilder out) {
        if (value == null) {
            out.append("\\N");
            return;
        }
        for (int i = 0, n = value.length(); i < n; i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> out.append(c);
            }
        }
    }

    /** Fields made beforehand in COPY's text form (see {@link #escape}), tab-separated. */
    public CopyRows fields(CharSequence escaped) {
        separator();
        row.append(escaped);
        return this;
    }

    /** A JSON value, already cleaned. */
    public CopyRows json(Object value) {
        separator();
        JsonText.writeForCopy(value, row);
        return this;
    }

    public CopyRows number(long value) {
        separator();
        row.append(value);
        return this;
    }

    public CopyRows numberOrNull(Long value) {
        return value == null ? text(null) : number(value);
    }

    public CopyRows uuid(UUID value) {
        separator();
        row.append(value);
        return this;
    }

    public CopyRows time(OffsetDateTime value) {
        separator();
        row.append(value);
        return this;
    }

    public void endRow() throws SQLException {
        row.append('\n');
        int length = row.length();
        if (used + 3 * length > buffer.length) {
            flush();
            if (3 * length > buffer.length) {
                buffer = new byte[3 * length];
            }
        }
        int at = used;
        for (int i = 0; i < length; i++) {
            char c = row.charAt(i);
            if (c >= 0x80) { // not ASCII: let the JDK encode the row (surrogate pairs and all)
                byte[] bytes = row.toString().getBytes(StandardCharsets.UTF_8);
                System.arraycopy(bytes, 0, buffer, used, bytes.length);
                at = used + bytes.length;
                break;
            }
            buffer[at++] = (byte) c;
        }
        used = at;
        row.setLength(0);
        rowStarted = false;
    }

    /** Sends what is buffered and ends the COPY; returns the rows the server took. */
    public long finish() throws SQLException {
        flush();
        return copy.endCopy();
    }

    void flush() throws SQLException {
        if (used > 0 && sink.accept(buffer, used)) {
            buffer = new byte[Math.max(CHUNK, buffer.length)];
        }
        used = 0;
    }

    private void separator() {
        if (rowStarted) {
            row.append('\t');
        }
        rowStarted = true;
    }

    /** Ends a COPY that failed half-way, so the connection can roll back. */
    public void abandon() {
        try {
            if (copy != null && copy.isActive()) {
                copy.cancelCopy();
            }
        } catch (SQLException ignored) {
            // the transaction rolls back either way
        }
    }
}
