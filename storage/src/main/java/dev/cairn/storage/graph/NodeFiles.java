package dev.cairn.storage.graph;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiConsumer;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ObjectKey;

/**
 * A node's virtual folder of files. Contents wait in memory or on disk until the node is
 * stored; then they go to the object store and the tree keeps only their keys, serialised
 * as the node's {@code repository_metadata}: {@code {"o": {name: {"k": key} | {"o": {…}}}}}.
 * Paths are relative, '/'-separated, without '.' or '..' segments.
 */
public final class NodeFiles {

    private sealed interface Entry permits FileEntry, DirEntry {}

    /** A file: its key once in the object store, else where its content waits (bytes, a file or a stream). */
    private record FileEntry(ObjectKey key, byte[] bytes, Path source, InputStream stream) implements Entry {}

    private record DirEntry(TreeMap<String, Entry> children) implements Entry {
        DirEntry() {
            this(new TreeMap<>());
        }
    }

    private final DirEntry root = new DirEntry();
    private boolean frozen;

    NodeFiles() {}

    /** Adds or replaces a file with these bytes (copied). */
    public void put(String path, byte[] content) {
        Objects.requireNonNull(content, "content");
        place(path, new FileEntry(null, content.clone(), null, null));
    }

    /** Adds or replaces a file whose content is read from {@code source} when the node is stored. */
    public void put(String path, Path source) {
        if (!Files.isRegularFile(source)) {
            throw new InvalidInputException("not a regular file: " + source);
        }
        place(path, new FileEntry(null, null, source, null));
    }

    /**
     * Adds or replaces a file whose content is read from {@code content} when the node is
     * stored, once and in bounded memory (an upload of any size goes straight to the object
     * store). The caller closes the stream after storing the node.
     */
    public void put(String path, InputStream content) {
        Objects.requireNonNull(content, "content");
        place(path, new FileEntry(null, null, null, content));
    }

    /** Adds every file and folder under {@code folder}, at {@code path} ("" for the top). */
    public void putTree(String path, Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            throw new InvalidInputException("not a directory: " + folder);
        }
        try (var walk = Files.walk(folder)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                String relative = folder.relativize(p).toString().replace('\\', '/');
                String target = path.isEmpty() ? relative : relative.isEmpty() ? path : path + "/" + relative;
                if (target.isEmpty()) {
                    continue;
                }
                if (Files.isDirectory(p)) {
                    mkdirs(target);
                } else {
                    put(target, p);
                }
            }
        }
    }

    /** Creates a folder (and its parents); an empty folder is part of the node too. */
    public void mkdirs(String path) {
        requireOpen();
        DirEntry dir = root;
        for (String name : segments(path)) {
            Entry next = dir.children().computeIfAbsent(name, n -> new DirEntry());
            if (!(next instanceof DirEntry d)) {
                throw new InvalidInputException("'" + path + "': '" + name + "' is a file, not a folder");
            }
            dir = d;
        }
    }

    /** Removes a file or folder of an unstored node; false when there was none. */
    public boolean remove(String path) {
        requireOpen();
        List<String> names = segments(path);
        DirEntry parent = find(names.subList(0, names.size() - 1)) instanceof DirEntry d ? d : null;
        return parent != null && parent.children().remove(names.getLast()) != null;
    }

    /** Whether the node has no file and no folder. */
    public boolean isEmpty() {
        return root.children().isEmpty();
    }

    /** Whether a file or folder exists at {@code path}. */
    public boolean exists(String path) {
        return find(segments(path)) != null;
    }

    /** The names in a folder ("" for the top), sorted. */
    public List<String> list(String path) {
        Entry e = path.isEmpty() ? root : find(segments(path));
        if (!(e instanceof DirEntry dir)) {
            throw new NotFoundException("no folder '" + path + "' in the node's files");
        }
        return List.copyOf(dir.children().keySet());
    }

    /** The object key of a stored file. */
    public Optional<ObjectKey> key(String path) {
        return find(segments(path)) instanceof FileEntry f ? Optional.ofNullable(f.key()) : Optional.empty();
    }

    /** Every file's path and key (stored nodes), in path order. */
    public Map<String, ObjectKey> keys() {
        Map<String, ObjectKey> keys = new LinkedHashMap<>();
        walk(root, "", (p, f) -> keys.put(p, f.key()));
        return Collections.unmodifiableMap(keys);
    }

    /** Writes pending contents to the object store, so that every file has its key. */
    void writeTo(Container container) throws IOException {
        resolve(root, container);
    }

    private void resolve(DirEntry dir, Container container) throws IOException {
        for (Map.Entry<String, Entry> e : dir.children().entrySet()) {
            switch (e.getValue()) {
                case DirEntry d -> resolve(d, container);
                case FileEntry f when f.key() != null -> {}
                case FileEntry f when f.bytes() != null -> e.setValue(stored(container.put(f.bytes())));
                case FileEntry f when f.stream() != null -> e.setValue(stored(container.put(f.stream())));
                case FileEntry f -> {
                    try (InputStream in = Files.newInputStream(f.source())) {
                        e.setValue(stored(container.put(in)));
                    }
                }
            }
        }
    }

    private static FileEntry stored(ObjectKey key) {
        return new FileEntry(key, null, null, null);
    }

    /** True when some file still waits for the object store. */
    boolean hasPendingContent() {
        boolean[] pending = {false};
        walk(root, "", (p, f) -> pending[0] |= f.key() == null);
        return pending[0];
    }

    /** The {@code repository_metadata} form; every file must have its key. */
    Map<String, Object> toMetadata() {
        return root.children().isEmpty() ? Map.of() : metadata(root);
    }

    private static Map<String, Object> metadata(DirEntry dir) {
        Map<String, Object> children = new LinkedHashMap<>();
        dir.children()
                .forEach((name, entry) -> children.put(
                        name,
                        switch (entry) {
                            case DirEntry d -> metadata(d);
                            case FileEntry f -> {
                                if (f.key() == null) {
                                    throw new IllegalStateException(
                                            "file '" + name + "' has not been written to the object store");
                                }
                                yield Map.of("k", f.key().hex());
                            }
                        }));
        return Map.of("o", children);
    }

    /**
     * The files of a stored node from its {@code repository_metadata} (as a query projects it),
     * read-only: a caller that needs a node's file tree need not load the whole node.
     */
    public static NodeFiles fromMetadata(Map<String, Object> metadata) {
        NodeFiles files = new NodeFiles();
        if (!metadata.isEmpty()) {
            read(metadata, files.root, "");
        }
        files.frozen = true;
        return files;
    }

    private static void read(Map<?, ?> node, DirEntry dir, String path) {
        if (!(node.get("o") instanceof Map<?, ?> children)) {
            return;
        }
        for (Map.Entry<?, ?> e : children.entrySet()) {
            String name = (String) e.getKey();
            Map<?, ?> child = (Map<?, ?>) e.getValue();
            if (child.get("k") instanceof String key) {
                dir.children().put(name, stored(ObjectKey.of(key)));
            } else {
                DirEntry sub = new DirEntry();
                dir.children().put(name, sub);
                read(child, sub, path + name + "/");
            }
        }
    }

    void freeze() {
        frozen = true;
    }

    private void walk(DirEntry dir, String prefix, BiConsumer<String, FileEntry> each) {
        dir.children().forEach((name, entry) -> {
            switch (entry) {
                case DirEntry d -> walk(d, prefix + name + "/", each);
                case FileEntry f -> each.accept(prefix + name, f);
            }
        });
    }

    private void place(String path, FileEntry file) {
        requireOpen();
        List<String> names = segments(path);
        DirEntry dir = root;
        for (String name : names.subList(0, names.size() - 1)) {
            Entry next = dir.children().computeIfAbsent(name, n -> new DirEntry());
            if (!(next instanceof DirEntry d)) {
                throw new InvalidInputException("'" + path + "': '" + name + "' is a file, not a folder");
            }
            dir = d;
        }
        if (dir.children().get(names.getLast()) instanceof DirEntry) {
            throw new InvalidInputException("'" + path + "' is a folder");
        }
        dir.children().put(names.getLast(), file);
    }

    private Entry find(List<String> names) {
        Entry e = root;
        for (String name : names) {
            if (!(e instanceof DirEntry d)) {
                return null;
            }
            e = d.children().get(name);
        }
        return e;
    }

    private void requireOpen() {
        if (frozen) {
            throw new ModificationNotAllowedException("the node is stored: its files cannot change");
        }
    }

    private static List<String> segments(String path) {
        Objects.requireNonNull(path, "path");
        if (path.isEmpty() || path.startsWith("/") || path.endsWith("/")) {
            throw new InvalidInputException(
                    "file path '" + path + "' must be relative, non-empty and not end with '/'");
        }
        List<String> names = new ArrayList<>();
        for (String name : path.split("/", -1)) {
            if (name.isEmpty() || name.equals(".") || name.equals("..")) {
                throw new InvalidInputException("file path '" + path + "' has an empty, '.' or '..' segment");
            }
            names.add(name);
        }
        return names;
    }
}
