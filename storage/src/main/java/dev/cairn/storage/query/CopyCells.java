package dev.cairn.storage.query;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.UUID;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;

/**
 * The cells of a query's rows read from {@code COPY (…) TO STDOUT (FORMAT binary)}: a header, then
 * per row a count of fields and each field as its length (-1 for null) and its bytes in the type's
 * binary form, then -1 for the end. PostgreSQL writes rows this way at less cost than through a
 * cursor, and the driver hands over each message's bytes without making a row of them.
 *
 * <p>The stream carries no types: {@link #statement} casts every column to the one type its
 * {@link ValueReader} decodes (JSON as its text).
 */
final class CopyCells implements CellSource {

    private static final byte[] SIGNATURE = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0};
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final String QUERY_CANCELED = "57014";
    /** PostgreSQL counts time in microseconds from 2000-01-01 UTC. */
    private static final long EPOCH_2000_SECONDS = 946_684_800L;

    private final PGConnection connection;
    private final CopyOut copy;
    private final ValueReader[] columns;
    private byte[] buffer = new byte[0];
    private int position;
    private boolean started;
    private boolean ended;

    /**
     * Reads {@code copy}, a COPY of {@link #statement}'s making on {@code connection}, whose columns are
     * read by {@code columns}.
     */
    CopyCells(PGConnection connection, CopyOut copy, ValueReader[] columns) {
        this.connection = connection;
        this.copy = copy;
        this.columns = columns.clone();
    }

    /** Whether {@link #statement} can cast a column read by {@code reader} to a type this class decodes. */
    static boolean decodes(ValueReader reader) {
        return sqlType(reader) != null;
    }

    /**
     * {@code COPY} of the rows of {@code select} (a statement with its values written in), each of its
     * first {@code columns.length} columns cast to what its reader decodes.
     */
    static String statement(String select, ValueReader[] columns) {
        StringBuilder sql = new StringBuilder(select.length() + 32 * columns.length + 64).append("COPY (SELECT ");
        for (int i = 0; i < columns.length; i++) {
            sql.append(i == 0 ? "" : ", ")
                    .append("q.c")
                    .append(i + 1)
                    .append("::")
                    .append(sqlType(columns[i]));
        }
        // the sub-select keeps its ORDER BY: a sorted sub-select is not pulled up, and its scan keeps its order
        sql.append(" FROM (").append(select).append(") AS q(");
        for (int i = 0; i < columns.length; i++) {
            sql.append(i == 0 ? "c" : ", c").append(i + 1);
        }
        return sql.append(")) TO STDOUT (FORMAT binary)").toString();
    }

    private static String sqlType(ValueReader reader) {
        return switch (reader) {
            case LONG -> "int8";
            case DOUBLE -> "float8";
            case BOOLEAN -> "bool";
            case TEXT, JSON -> "text";
            case UUID -> "uuid";
            case TIMESTAMP -> "timestamptz";
            // NUMBER keeps the type its value has (an integer, a double or a numeric), which the cast would lose
            default -> null;
        };
    }

    @Override
    public Object[] next() throws SQLException {
        if (ended) {
            return null;
        }
        if (!started) {
            readHeader();
            started = true;
        }
        need(2);
        short fields = (short) SHORT.get(buffer, position);
        position += 2;
        if (fields == -1) {
            ended = true;
            while (copy.readFromCopy() != null) {
                // nothing follows the end but the command's completion, which the driver reads here
            }
            return null;
        }
        if (fields != columns.length) {
            throw new SQLException("COPY sent a row of " + fields + " fields, expected " + columns.length);
        }
        Object[] cells = new Object[fields];
        for (int i = 0; i < fields; i++) {
            need(4);
            int length = (int) INT.get(buffer, position);
            position += 4;
            if (length < 0) {
                continue;
            }
            need(length);
            cells[i] = cell(columns[i], length);
            position += length;
        }
        return cells;
    }

    private void readHeader() throws SQLException {
        need(SIGNATURE.length + 8);
        if (!Arrays.equals(buffer, position, position + SIGNATURE.length, SIGNATURE, 0, SIGNATURE.length)) {
            throw new SQLException("COPY's output does not start with the binary format's signature");
        }
        position += SIGNATURE.length + 4; // the flags: none defined but OIDs, which this statement does not ask for
        int extension = (int) INT.get(buffer, position);
        position += 4;
        need(extension);
        position += extension;
    }

    private Object cell(ValueReader reader, int length) throws SQLException {
        return switch (reader) {
            case LONG -> (long) LONG.get(buffer, position(length, 8));
            case DOUBLE -> Double.longBitsToDouble((long) LONG.get(buffer, position(length, 8)));
            case BOOLEAN -> buffer[position(length, 1)] != 0;
            case TEXT -> new String(buffer, position, length, StandardCharsets.UTF_8);
            case UUID -> new UUID((long) LONG.get(buffer, position(length, 16)), (long) LONG.get(buffer, position + 8));
            case TIMESTAMP -> timestamp((long) LONG.get(buffer, position(length, 8)));
            case JSON -> Arrays.copyOfRange(buffer, position, position + length);
            default -> throw new IllegalStateException(reader + " is not read from a COPY");
        };
    }

    /** The position of a field of a fixed {@code width}, checked against the {@code length} it came with. */
    private int position(int length, int width) throws SQLException {
        if (length != width) {
            throw new SQLException("COPY sent a field of " + length + " bytes where " + width + " were expected");
        }
        return position;
    }

    /** As the driver reads a {@code timestamptz}: in UTC, PostgreSQL's infinities as the largest and smallest. */
    private static OffsetDateTime timestamp(long micros) {
        if (micros == Long.MAX_VALUE) {
            return OffsetDateTime.MAX;
        }
        if (micros == Long.MIN_VALUE) {
            return OffsetDateTime.MIN;
        }
        long seconds = Math.floorDiv(micros, 1_000_000L);
        long nanos = Math.floorMod(micros, 1_000_000L) * 1_000L;
        return OffsetDateTime.ofInstant(Instant.ofEpochSecond(EPOCH_2000_SECONDS + seconds, nanos), ZoneOffset.UTC);
    }

    /** Makes {@code n} bytes readable at {@link #position}, taking messages off the COPY as needed. */
    private void need(int n) throws SQLException {
        while (buffer.length - position < n) {
            byte[] more = copy.readFromCopy();
            if (more == null) {
                throw new SQLException("COPY's output ended inside a row");
            }
            if (position == buffer.length) {
                buffer = more;
            } else {
                // a row split across messages (PostgreSQL sends one a row, the header with the first)
                byte[] joined = Arrays.copyOfRange(buffer, position, buffer.length + more.length);
                System.arraycopy(more, 0, joined, buffer.length - position, more.length);
                buffer = joined;
            }
            position = 0;
        }
    }

    /**
     * Ends a COPY not read to its end: PostgreSQL is asked to cancel it and what it sent before it
     * stopped is read and dropped, up to the error the cancel makes, so that the connection is ready
     * for its next statement. (The driver's {@code cancelCopy} of a COPY out only sends the cancel and
     * leaves those messages to the statement after.) The cancel is signalled before the read ends,
     * and a backend that gets it when idle ignores it, so it cannot reach the connection's next query.
     */
    @Override
    public void close() throws SQLException {
        if (!copy.isActive()) {
            return;
        }
        connection.cancelQuery();
        try {
            while (copy.readFromCopy() != null) {
                // dropped
            }
        } catch (SQLException e) {
            if (!QUERY_CANCELED.equals(e.getSQLState())) {
                throw e;
            }
        }
    }
}
