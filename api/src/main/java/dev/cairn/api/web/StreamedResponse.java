package dev.cairn.api.web;

import java.io.IOException;

import jakarta.servlet.http.HttpServletResponse;

/**
 * A response whose body is written as it is read (a file, a zip), and what a failure while writing
 * it becomes. Before anything was sent the response is reset, so that the failure is answered as a
 * problem with no header of the abandoned body left over (a Content-Length, an ETag). After, the
 * status is sent: {@code ProblemDetailsAdvice} then appends nothing, and the body stays short of
 * its Content-Length (a file) or of its end (a zip's central directory), which a client sees.
 */
public final class StreamedResponse {

    /** Writes a body. */
    @FunctionalInterface
    public interface Body {
        void write() throws IOException;
    }

    private StreamedResponse() {}

    public static void write(HttpServletResponse response, Body body) throws IOException {
        try {
            body.write();
        } catch (IOException | RuntimeException e) {
            if (!response.isCommitted()) {
                response.reset();
            }
            throw e;
        }
    }
}
