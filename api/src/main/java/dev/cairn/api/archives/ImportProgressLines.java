package dev.cairn.api.archives;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.ProblemDetail;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.storage.archive.ArchivePart;
import dev.cairn.storage.archive.ArchiveProgress;

/**
 * An import's progress as lines of JSON on the response, for a client that asked for NDJSON: a part's
 * rows as they are read ({@code {"part": "nodes", "done": 2000, "total": 313000}}, at most four lines a
 * second and each part's first and last), each step of the work after the rows ({@code {"step": "links
 * inserted", "millis": 5512}}), then one last line: {@code {"done": …}} with what was added, or a
 * problem (RFC 9457) that says why nothing was. A client that went away stops nothing: the import goes
 * on to its end, or its failure, as a request whose answer was lost.
 */
final class ImportProgressLines implements ArchiveProgress {

    static final String NDJSON = "application/x-ndjson";

    private static final Logger LOG = LoggerFactory.getLogger(ImportProgressLines.class);
    private static final long INTERVAL_NANOS = 250_000_000L;

    private final OutputStream out;
    private final JsonMapper json;
    private long lastAt = System.nanoTime() - INTERVAL_NANOS;
    private boolean gone;

    ImportProgressLines(OutputStream out, JsonMapper json) {
        this.out = out;
        this.json = json;
    }

    @Override
    public synchronized void update(ArchivePart part, long done, long total) {
        long now = System.nanoTime();
        if (done != 0 && done < total && now - lastAt < INTERVAL_NANOS) {
            return;
        }
        lastAt = now;
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("part", part.key());
        line.put("done", done);
        line.put("total", total);
        write(line);
    }

    @Override
    public synchronized void step(String step, long millis) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("step", step);
        line.put("millis", millis);
        write(line);
    }

    synchronized void done(Object result) {
        write(Map.of("done", result));
    }

    synchronized void failed(ProblemDetail problem) {
        write(problem);
    }

    private void write(Object line) {
        if (gone) {
            return;
        }
        try {
            out.write(json.writeValueAsString(line).getBytes(StandardCharsets.UTF_8));
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            gone = true;
            LOG.debug("the client of an import went away: {}", e.getMessage());
        }
    }
}
