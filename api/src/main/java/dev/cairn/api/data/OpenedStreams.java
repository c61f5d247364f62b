package dev.cairn.api.data;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import org.springframework.web.multipart.MultipartFile;

/**
 * The streams an upload opens for its nodes to read as they are stored (the node's files are written then,
 * not when the request is read); closing closes every one, whatever the first to fail.
 */
final class OpenedStreams implements AutoCloseable {

    private final List<InputStream> opened = new ArrayList<>();

    /** Keeps {@code in} to be closed; returns it. */
    InputStream add(InputStream in) {
        opened.add(in);
        return in;
    }

    /** The content of an uploaded part, kept to be closed. */
    InputStream open(MultipartFile file) {
        try {
            return add(file.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException("reading the uploaded file " + file.getOriginalFilename(), e);
        }
    }

    @Override
    public void close() throws IOException {
        IOException first = null;
        for (InputStream in : opened) {
            try {
                in.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
