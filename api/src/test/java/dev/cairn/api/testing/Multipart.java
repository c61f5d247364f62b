package dev.cairn.api.testing;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * A multipart/form-data body built from parts whose content may be a stream of any size: the
 * body is read as it is sent, never held whole.
 */
public final class Multipart {

    private final String boundary = "cairn-" + UUID.randomUUID();
    private final List<Supplier<InputStream>> pieces = new ArrayList<>();
    private long length;

    /** A file part. */
    public Multipart file(String field, String filename, byte[] content) {
        return file(field, filename, content.length, () -> new ByteArrayInputStream(content));
    }

    /** A file part of {@code size} bytes read from {@code content} when the body is sent. */
    public Multipart file(String field, String filename, long size, Supplier<InputStream> content) {
        text("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + field + "\"; filename=\"" + filename
                + "\"\r\nContent-Type: application/octet-stream\r\n\r\n");
        pieces.add(content);
        length += size;
        text("\r\n");
        return this;
    }

    /** A part without a filename, as a form field: {@code content} in UTF-8, of the given type. */
    public Multipart field(String field, String contentType, String content) {
        text("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + field + "\"\r\nContent-Type: "
                + contentType + "\r\n\r\n" + content + "\r\n");
        return this;
    }

    private void text(String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        pieces.add(() -> new ByteArrayInputStream(bytes));
        length += bytes.length;
    }

    public String contentType() {
        return "multipart/form-data; boundary=" + boundary;
    }

    /** The body, with its length declared. */
    public HttpRequest.BodyPublisher publisher() {
        text("--" + boundary + "--\r\n");
        List<Supplier<InputStream>> all = List.copyOf(pieces);
        return HttpRequest.BodyPublishers.fromPublisher(
                HttpRequest.BodyPublishers.ofInputStream(() -> new SequenceInputStream(
                        Collections.enumeration(all.stream().map(Supplier::get).toList()))),
                length);
    }

    /** A POST of this body to {@code path}, given ten minutes: a body may be gigabytes. */
    public Api.Response post(Api api, String path) {
        HttpRequest.BodyPublisher body = publisher();
        return api.send(api.request(path)
                .timeout(Duration.ofMinutes(10))
                .header("Content-Type", contentType())
                .POST(body));
    }
}
