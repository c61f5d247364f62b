package dev.cairn.storage.graph.traversal;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Iterator;
import java.util.stream.Stream;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/** Test data in bulk: lines of COPY text format (tab-separated columns) streamed into a table. */
final class CopyLines {

    private CopyLines() {}

    /** Runs {@code copySql} ({@code COPY t (...) FROM STDIN}) with the given lines; returns the rows copied. */
    static long copy(Connection connection, String copySql, Stream<String> lines) throws SQLException {
        CopyIn copy = connection.unwrap(PGConnection.class).getCopyAPI().copyIn(copySql);
        try (lines) {
            StringBuilder buffer = new StringBuilder(1 << 16);
            Iterator<String> it = lines.iterator();
            while (it.hasNext()) {
                buffer.append(it.next()).append('\n');
                if (buffer.length() > 60_000) {
                    flush(copy, buffer);
                }
            }
            flush(copy, buffer);
            return copy.endCopy();
        } finally {
            if (copy.isActive()) {
                copy.cancelCopy();
            }
        }
    }

    private static void flush(CopyIn copy, StringBuilder buffer) throws SQLException {
        byte[] bytes = buffer.toString().getBytes(StandardCharsets.UTF_8);
        copy.writeToCopy(bytes, 0, bytes.length);
        buffer.setLength(0);
    }
}
