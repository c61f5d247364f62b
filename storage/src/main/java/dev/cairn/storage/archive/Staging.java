package dev.cairn.storage.archive;

import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.postgresql.PGConnection;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * The staging tables of an import: one per row part but the nodes (which {@link NodeIntake} takes as they
 * stream), {@code archive_<part> (ord, doc jsonb)}, filled by
 * COPY straight from the archive's lines, so the checks and the writes that follow are set operations in
 * the database, whatever the archive's size. They live until the import's transaction ends.
 */
final class Staging {

    private static final Pattern COPY_LINE = Pattern.compile("line (\\d+)");

    private Staging() {}

    static String table(ArchivePart part) {
        return "archive_" + part.key();
    }

    static void create(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (ArchivePart part : ArchivePart.ROWS) {
                if (part == ArchivePart.NODES) {
                    continue; // streamed, see NodeIntake
                }
                s.execute("CREATE TEMP TABLE " + table(part)
                        + " (ord bigint GENERATED ALWAYS AS IDENTITY, doc jsonb NOT NULL) ON COMMIT DROP");
            }
        }
    }

    /** Copies the lines of {@code part} in; a line that is not JSON fails naming its row. */
    static long copyIn(Connection c, ArchivePart part, InputStream ndjson) throws SQLException, IOException {
        try {
            return c.unwrap(PGConnection.class)
                    .getCopyAPI()
                    .copyIn("COPY " + table(part) + " (doc) FROM STDIN" + ArchiveExport.JSON_LINES, ndjson);
        } catch (PSQLException e) {
            throw rowError(part, e);
        }
    }

    private static RuntimeException rowError(ArchivePart part, PSQLException e) {
        ServerErrorMessage m = e.getServerErrorMessage();
        if (m == null || m.getWhere() == null) {
            throw new InvalidArchiveException(
                    "the archive's " + part.key() + " part cannot be read: " + e.getMessage(), e);
        }
        Matcher line = COPY_LINE.matcher(m.getWhere());
        String row = line.find() ? ", row " + line.group(1) : "";
        String what = "23502".equals(m.getSQLState())
                ? "an empty line where a JSON object should be"
                : "not one JSON object per line (" + m.getMessage()
                        + (m.getDetail() == null ? "" : ": " + m.getDetail()) + ")";
        return new InvalidArchiveException("the archive's " + part.key() + " part" + row + ": " + what, e);
    }
}
