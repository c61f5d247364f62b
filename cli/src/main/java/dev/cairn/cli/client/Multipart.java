package dev.cairn.cli.client;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A multipart/form-data body (RFC 7578) built from text fields and files; the files are streamed from
 * disk as the request is sent, not read into memory first. {@link CairnClient#post(String, Multipart)}
 * sends it.
 */
public final class Multipart {

    private final String boundary = "cairn-" + UUID.randomUUID();
    /** Each piece a {@code byte[]} or a {@link Path} whose bytes follow. */
    private final List<Object> pieces = new ArrayList<>();

    /** A text field; a null value is left out. */
    public Multipart field(String name, String value) {
        if (value != null) {
            text("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + quoted(name)
                    + "\"\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\n" + value + "\r\n");
        }
        return this;
    }

    /** A file part whose file name is {@code fileName} (a path such as bin/run.sh). */
    public Multipart file(String name, String fileName, Path file) {
        if (!Files.isReadable(file)) {
            throw CliException.usage("cannot read " + file);
        }
        text("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + quoted(name) + "\"; filename=\""
                + quoted(fileName) + "\"\r\nContent-Type: application/octet-stream\r\n\r\n");
        pieces.add(file);
        text("\r\n");
        return this;
    }

    /**
     * A file part for each file under {@code dir}, its sub-folders included, named by its path relative to
     * {@code dir} with '/' (in/b.txt), in a sorted order; returns how many.
     */
    public int folder(String name, Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> tree = Files.walk(dir)) {
            files = tree.filter(Files::isRegularFile).sorted().toList();
        }
        for (Path file : files) {
            file(name, dir.relativize(file).toString().replace('\\', '/'), file);
        }
        return files.size();
    }

    public String contentType() {
        return "multipart/form-data; boundary=" + boundary;
    }

    /** The whole body's length in bytes, declared before it is sent. */
    long length() throws IOException {
        long length = closing().length;
        for (Object piece : pieces) {
            length += piece instanceof byte[] bytes ? bytes.length : Files.size((Path) piece);
        }
        return length;
    }

    void writeTo(OutputStream out) throws IOException {
        for (Object piece : pieces) {
            if (piece instanceof byte[] bytes) {
                out.write(bytes);
            } else {
                Files.copy((Path) piece, out);
            }
        }
        out.write(closing());
    }

    private byte[] closing() {
        return ("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
    }

    private void text(String text) {
        pieces.add(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String quoted(String value) {
        return value.replace("\\", "\\\\")
                .replace("\"", "\\\"")
                .replace("\r", "")
                .replace("\n", "");
    }
}
