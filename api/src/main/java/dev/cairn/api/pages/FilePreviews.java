package dev.cairn.api.pages;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Component;

import dev.cairn.api.nodes.FileListing;
import dev.cairn.api.nodes.NodeFile;
import dev.cairn.api.nodes.NodeFileService;
import dev.cairn.storage.graph.ObjectStoreErrors;

/**
 * A node's files as a page shows them (a calculation job's retrieved folder, a node's own): each file with
 * its size, and the beginning of a text file to read in place. A file with a NUL byte in its
 * beginning is taken for binary and offered for download only.
 */
@Component
public class FilePreviews {

    /** The most files listed, and the bytes of each shown. */
    static final int MAX_FILES = 100;

    static final int PREVIEW_BYTES = 8 * 1024;

    /**
     * One file.
     *
     * @param preview the beginning of a text file, null for a binary one
     * @param cut     whether the preview is shorter than the file
     */
    public record Shown(String path, Long size, String preview, boolean cut) {}

    /** The files listed, and whether there are more than {@link #MAX_FILES}. */
    public record Files(UUID node, List<Shown> files, boolean more) {}

    private final NodeFileService files;

    FilePreviews(NodeFileService files) {
        this.files = files;
    }

    public Files of(UUID node) {
        List<FileListing.Entry> entries = files.listing(node.toString(), "", true).entries().stream()
                .filter(e -> "file".equals(e.type()))
                .toList();
        List<Shown> shown = new ArrayList<>();
        for (FileListing.Entry e : entries.subList(0, Math.min(MAX_FILES, entries.size()))) {
            shown.add(show(files.file(node.toString(), e.path())));
        }
        return new Files(node, shown, entries.size() > MAX_FILES);
    }

    private static Shown show(NodeFile file) {
        byte[] head;
        try (InputStream in = file.open()) {
            head = in.readNBytes(PREVIEW_BYTES);
        } catch (IOException e) {
            throw ObjectStoreErrors.translate(e, "reading '" + file.path() + "' of node " + file.node());
        }
        for (byte b : head) {
            if (b == 0) {
                return new Shown(file.path(), file.size(), null, false);
            }
        }
        return new Shown(file.path(), file.size(), new String(head, StandardCharsets.UTF_8), file.size() > head.length);
    }
}
