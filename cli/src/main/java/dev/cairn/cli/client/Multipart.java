package dev.cairn.cli.client;

import java.io.FileNotFoundException;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A multipart/form-data body (RFC 7578) built from text fields and files; the files are streamed from
 * disk as the request is sent, not read into memory first. {@link CairnClient#post(String, String,
 * BodyPublisher)} sends it.
 */
public final class Multipart {

    private final String boundary = "cairn-" + UUID.randomUUID();
    private final List<BodyPublisher> parts = new ArrayList<>();

    /** A text field; a null value is left out. */
    public Multipart field(String name, String value) {
        if (value != null) {
            parts.add(text("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + quoted(name)
                    + "\"\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\n" + value + "\r\n"));
        }
        return this;
    }

    /** A file part whose file name is {@code fileName} (a path such as bin/run.sh). */
    public Multipart file(String name, String fileName, Path file) {
        parts.add(text("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + quoted(name)
                + "\"; filename=\"" + quoted(fileName) + "\"\r\nContent-Type: application/octet-stream\r\n\r\n"));
        try {
            parts.add(BodyPublishers.ofFile(file));
        } catch (FileNotFoundException e) {
            throw CliException.usage("cannot read " + file + ": " + e.getMessage());
        }
        parts.add(text("\r\n"));
        return this;
    }

    public String contentType() {
        return "multipart/form-data; boundary=" + boundary;
    }

    public HttpRequest.BodyPublisher body() {
        List<BodyPublisher> all = new ArrayList<>(parts);
        all.add(text("--" + boundary + "--\r\n"));
        return BodyPublishers.concat(all.toArray(BodyPublisher[]::new));
    }

    private static BodyPublisher text(String text) {
        return BodyPublishers.ofString(text, StandardCharsets.UTF_8);
    }

    private static String quoted(String value) {
        return value.replace("\\", "\\\\")
                .replace("\"", "\\\"")
                .replace("\r", "")
                .replace("\n", "");
    }
}
