package dev.cairn.api.nodes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Service;

import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.NodeFiles;
import dev.cairn.storage.graph.ObjectStoreErrors;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ObjectKey;
import dev.cairn.storage.objects.ObjectMeta;
import dev.cairn.storage.views.NodeFileTree;

/**
 * The files of nodes: a folder listed, one file found for reading, a folder for a zip archive. A node's
 * files are found from its row alone (one statement), their sizes in the object store's index.
 */
@Service
public class NodeFileService {

    private final NodeService nodes;
    private final Container objects;

    NodeFileService(NodeService nodes, Storage storage) {
        this.nodes = nodes;
        this.objects = storage.objectStore();
    }

    /**
     * The files and folders in one folder of the node {@code ref} names ("" for the top), with each file's
     * size and key; with {@code recursive}, every file below the folder.
     */
    public FileListing listing(String ref, String path, boolean recursive) {
        NodeFileTree tree = nodes.files(ref);
        String dir = folder(tree, path);
        NodeFiles files = tree.files();
        List<String> paths = new ArrayList<>();
        if (recursive) {
            for (String p : files.keys().keySet()) {
                if (dir.isEmpty() || p.startsWith(dir + "/")) {
                    paths.add(p);
                }
            }
        } else {
            for (String name : files.isEmpty() ? List.<String>of() : files.list(dir)) {
                paths.add(dir.isEmpty() ? name : dir + "/" + name);
            }
        }
        List<ObjectKey> keys = paths.stream()
                .map(p -> files.key(p).orElse(null))
                .filter(k -> k != null)
                .toList();
        Map<ObjectKey, ObjectMeta> metas = metas(keys);
        List<FileListing.Entry> entries = new ArrayList<>(paths.size());
        for (String p : paths) {
            String name = p.substring(p.lastIndexOf('/') + 1);
            ObjectKey key = files.key(p).orElse(null);
            if (key == null) {
                entries.add(new FileListing.Entry(name, p, "directory", null, null));
            } else {
                ObjectMeta meta = metas.get(key);
                entries.add(new FileListing.Entry(name, p, "file", meta == null ? null : meta.size(), key.hex()));
            }
        }
        return new FileListing(tree.uuid().toString(), dir, entries);
    }

    /** The file at {@code path} among the files of the node {@code ref} names. */
    public NodeFile file(String ref, String path) {
        if (path.isEmpty()) {
            throw new InvalidInputException(
                    "name a file after /files/; GET /api/v1/nodes/" + ref + "/files lists the node's files");
        }
        NodeFileTree tree = nodes.files(ref);
        ObjectKey key = tree.files().key(path).orElse(null);
        if (key == null) {
            if (tree.files().exists(path)) {
                throw new InvalidInputException("'" + path + "' is a folder of node " + tree.uuid()
                        + ": list it (files?path=" + path + ") or download it as a zip (archive?path=" + path + ")");
            }
            throw new NotFoundException("node " + tree.uuid() + " has no file '" + path + "'");
        }
        try {
            return new NodeFile(
                    objects, tree.uuid(), path, key, objects.meta(key).size());
        } catch (IOException e) {
            throw ObjectStoreErrors.translate(e, "reading '" + path + "' of node " + tree.uuid());
        }
    }

    /** The folder at {@code path} ("" for the top) among the files of the node {@code ref} names. */
    public NodeFolder folder(String ref, String path) {
        NodeFileTree tree = nodes.files(ref);
        return new NodeFolder(objects, tree.uuid(), tree.files(), folder(tree, path));
    }

    /** A folder of the node's files, checked: "" is the top. */
    private static String folder(NodeFileTree tree, String path) {
        String dir = path.strip();
        while (dir.endsWith("/")) {
            dir = dir.substring(0, dir.length() - 1);
        }
        if (dir.isEmpty()) {
            return "";
        }
        if (!tree.files().exists(dir)) {
            throw new NotFoundException("node " + tree.uuid() + " has no folder '" + dir + "'");
        }
        if (tree.files().key(dir).isPresent()) {
            throw new InvalidInputException(
                    "'" + dir + "' is a file of node " + tree.uuid() + ", not a folder: download it at files/" + dir);
        }
        return dir;
    }

    private Map<ObjectKey, ObjectMeta> metas(List<ObjectKey> keys) {
        if (keys.isEmpty()) {
            return Map.of();
        }
        try {
            return objects.metas(keys);
        } catch (IOException e) {
            throw ObjectStoreErrors.translate(e, "reading the sizes of node files");
        }
    }
}
