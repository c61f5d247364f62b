package dev.cairn.storage.archive.aiida;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.storage.archive.InvalidArchiveException;

/**
 * The stream a writer hands out for one part: newline-delimited JSON cut into rows as it arrives, each
 * passed on as soon as its newline is written, so only one row is ever held.
 */
final class RowSink extends OutputStream {

    /** Takes one row; {@code number} counts from 1. */
    interface Consumer {
        void row(ObjectNode row, long number) throws IOException;
    }

    /** Told once the stream is closed, with the number of rows. */
    interface Ending {
        void ended(long rows) throws IOException;
    }

    private final String where;
    private final Consumer consumer;
    private final Ending ending;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private long rows;
    private boolean closed;

    RowSink(String where, Consumer consumer, Ending ending) {
        this.where = where;
        this.consumer = consumer;
        this.ending = ending;
    }

    @Override
    public void write(int b) throws IOException {
        if (b == '\n') {
            endLine();
        } else {
            line.write(b);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (closed) {
            throw new IOException(where + " is closed");
        }
        int from = off;
        for (int i = off; i < off + len; i++) {
            if (b[i] == '\n') {
                line.write(b, from, i - from);
                endLine();
                from = i + 1;
            }
        }
        line.write(b, from, off + len - from);
    }

    private void endLine() throws IOException {
        rows++;
        JsonNode row;
        try {
            row = AiidaJson.MAPPER.readTree(line.toByteArray());
        } catch (JacksonException e) {
            throw new InvalidArchiveException(where + " row " + rows + " is not valid JSON: " + e.getOriginalMessage());
        }
        if (row == null || !row.isObject()) {
            throw new InvalidArchiveException(
                    where + " row " + rows + " is not a JSON object: " + abbreviate(line.toString(UTF_8)));
        }
        line.reset();
        consumer.row((ObjectNode) row, rows);
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (line.size() > 0) {
            throw new InvalidArchiveException(where + " ends within a row: every row ends with a newline");
        }
        ending.ended(rows);
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}
