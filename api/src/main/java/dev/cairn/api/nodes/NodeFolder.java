package dev.cairn.api.nodes;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.UUID;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import dev.cairn.storage.graph.NodeFiles;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ObjectKey;

/** A folder of a node's files (the top, or one below it), to be sent as a zip archive. */
final class NodeFolder {

    private final Container objects;
    private final UUID node;
    private final NodeFiles files;
    private final String path;

    NodeFolder(Container objects, UUID node, NodeFiles files, String path) {
        this.objects = objects;
        this.node = node;
        this.files = files;
        this.path = path;
    }

    /** The node's uuid. */
    public UUID node() {
        return node;
    }

    /** The folder's path, "" for the top. */
    public String path() {
        return path;
    }

    /** The name of its zip archive: the node's uuid, with the folder's path when it is not the top. */
    public String zipName() {
        return node + (path.isEmpty() ? "" : "-" + path.replace('/', '-')) + ".zip";
    }

    /** Writes every file and folder under it to {@code out} as a zip archive, as they are read. */
    public void writeZip(OutputStream out) throws IOException {
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            // node files are mostly text; the fastest level keeps the stream near disk speed
            zip.setLevel(Deflater.BEST_SPEED);
            if (!files.isEmpty()) {
                zipFolder(zip, path);
            }
        }
    }

    private void zipFolder(ZipOutputStream zip, String dir) throws IOException {
        List<String> names = files.list(dir);
        String relative = dir.equals(path) ? "" : dir.substring(path.isEmpty() ? 0 : path.length() + 1) + "/";
        if (names.isEmpty() && !relative.isEmpty()) {
            zip.putNextEntry(new ZipEntry(relative));
            zip.closeEntry();
        }
        for (String name : names) {
            String child = dir.isEmpty() ? name : dir + "/" + name;
            ObjectKey key = files.key(child).orElse(null);
            if (key == null) {
                zipFolder(zip, child);
                continue;
            }
            zip.putNextEntry(new ZipEntry(relative + name));
            try (InputStream in = objects.open(key)) {
                in.transferTo(zip);
            }
            zip.closeEntry();
        }
    }
}
