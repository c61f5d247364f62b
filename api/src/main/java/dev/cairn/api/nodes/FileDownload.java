package dev.cairn.api.nodes;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.MediaTypeFactory;

import dev.cairn.api.web.StreamedResponse;
import dev.cairn.storage.objects.ObjectKey;
import dev.cairn.storage.objects.ObjectRegion;

/**
 * One node file sent as a response: the entity tag is the object key (contents never change under
 * a key), {@code If-None-Match} answers 304, one {@code Range} answers 206 (416 beyond the end),
 * {@code If-Range} with another tag sends it whole. A file of some size stored uncompressed is
 * handed to the servlet container's sendfile (Tomcat's, announced by a request attribute), so its
 * bytes go from the page cache to the socket without passing through the JVM; any other is
 * streamed from the object store in large blocks.
 */
public final class FileDownload {

    /** Bytes moved per read and write: large enough that a fast disk or the page cache is the limit. */
    static final int BLOCK = 256 * 1024;

    /** Below this, reading the bytes costs less than the container's setting up of sendfile (its own threshold). */
    private static final long SENDFILE_MIN = 48 * 1024;

    private static final String SENDFILE = "org.apache.tomcat.sendfile.";

    private FileDownload() {}

    public static void send(NodeFile file, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        ObjectKey key = file.key();
        long size = file.size();
        String name = file.name();
        String etag = "\"" + key.hex() + "\"";
        response.setHeader(HttpHeaders.ETAG, etag);
        response.setHeader(HttpHeaders.ACCEPT_RANGES, "bytes");
        // a node's file never changes; only who may read it does
        response.setHeader(HttpHeaders.CACHE_CONTROL, "private, max-age=31536000, immutable");
        if (matches(request.getHeader(HttpHeaders.IF_NONE_MATCH), etag)) {
            response.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
            return;
        }
        String ifRange = request.getHeader(HttpHeaders.IF_RANGE);
        ByteRange.Request asked = ifRange != null && !ifRange.strip().equals(etag)
                ? new ByteRange.Request.Whole()
                : ByteRange.parse(request.getHeader(HttpHeaders.RANGE), size);
        response.setContentType(MediaTypeFactory.getMediaType(name)
                .orElse(MediaType.APPLICATION_OCTET_STREAM)
                .toString());
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader(
                HttpHeaders.CONTENT_DISPOSITION,
                ContentDisposition.attachment()
                        .filename(name, StandardCharsets.UTF_8)
                        .build()
                        .toString());
        long start = 0;
        long length = size;
        switch (asked) {
            case ByteRange.Request.Unsatisfiable u -> {
                response.setStatus(HttpServletResponse.SC_REQUESTED_RANGE_NOT_SATISFIABLE);
                response.setHeader(HttpHeaders.CONTENT_RANGE, "bytes */" + size);
                response.setContentLengthLong(0);
                return;
            }
            case ByteRange.Request.Part part -> {
                start = part.range().start();
                length = part.range().length();
                response.setStatus(HttpServletResponse.SC_PARTIAL_CONTENT);
                response.setHeader(
                        HttpHeaders.CONTENT_RANGE,
                        "bytes " + start + "-" + part.range().end() + "/" + size);
            }
            case ByteRange.Request.Whole whole -> response.setStatus(HttpServletResponse.SC_OK);
        }
        response.setContentLengthLong(length);
        if ("HEAD".equals(request.getMethod())) {
            return;
        }
        if (length >= SENDFILE_MIN && Boolean.TRUE.equals(request.getAttribute(SENDFILE + "support"))) {
            Optional<ObjectRegion> region = file.region();
            if (region.isPresent()) {
                // the container opens the file once this returns; a file moved meanwhile by packing
                // cuts the response short of its Content-Length, which the client sees
                long begin = region.get().offset() + start;
                request.setAttribute(
                        SENDFILE + "filename",
                        region.get().file().toAbsolutePath().toString());
                request.setAttribute(SENDFILE + "start", begin);
                request.setAttribute(SENDFILE + "end", begin + length);
                return;
            }
        }
        long from = start;
        long bytes = length;
        StreamedResponse.write(response, () -> {
            try (InputStream in = file.open()) {
                skip(in, from);
                copy(in, response.getOutputStream(), bytes);
            }
        });
    }

    private static boolean matches(String ifNoneMatch, String etag) {
        if (ifNoneMatch == null) {
            return false;
        }
        for (String tag : ifNoneMatch.split(",")) {
            String t = tag.strip();
            if (t.equals("*") || t.equals(etag) || t.equals("W/" + etag)) {
                return true;
            }
        }
        return false;
    }

    private static void skip(InputStream in, long n) throws IOException {
        // a loose object's stream seeks; a compressed packed one reads through
        in.skipNBytes(n);
    }

    /** Copies exactly {@code length} bytes in blocks of {@link #BLOCK}. */
    static void copy(InputStream in, OutputStream out, long length) throws IOException {
        byte[] block = new byte[(int) Math.min(BLOCK, Math.max(length, 1))];
        long left = length;
        while (left > 0) {
            int n = in.read(block, 0, (int) Math.min(block.length, left));
            if (n < 0) {
                throw new IOException("the object ended " + left + " bytes early");
            }
            out.write(block, 0, n);
            left -= n;
        }
    }
}
