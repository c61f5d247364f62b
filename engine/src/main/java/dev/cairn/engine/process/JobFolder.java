package dev.cairn.engine.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.Node;

/**
 * The folder a calculation job's {@code prepare} writes its input files into; it is uploaded as the
 * work directory. What is written here is kept on the job's node when it is submitted; a portable
 * code's files join the folder afterwards (where a path is taken, the job's file stays).
 */
public final class JobFolder {

    private final Path root;
    private final List<NodeCopy> nodeCopies = new ArrayList<>();

    /**
     * Files of a stored node that the engine copies into the work directory when it uploads the
     * job (AiiDA's {@code local_copy_list}): they reach the computer but are not kept on the job's
     * node a second time, since the input node holds them already.
     *
     * @param node   the node whose files are copied
     * @param path   one file of the node; null: all its files, as a tree
     * @param target the file (one file) or folder (a tree) it goes to, relative; "" for the work directory itself
     */
    public record NodeCopy(Node node, String path, String target) {}

    /** A job folder on {@code root}; the engine makes one for each {@code prepare} (and tests may). */
    public JobFolder(Path root) {
        this.root = root;
    }

    /**
     * Writes a file at a relative path, creating its folders; a path that is absolute or leaves
     * the folder is refused.
     *
     * @return this folder, for chaining
     */
    public JobFolder write(String relativePath, String content) throws IOException {
        Path target = resolve(relativePath);
        Files.createDirectories(target.getParent());
        Files.writeString(target, content);
        return this;
    }

    /**
     * Copies one file of a stored node to {@code target} when the job is uploaded; see
     * {@link NodeCopy}. A target that is absolute or leaves the folder is refused.
     *
     * @return this folder, for chaining
     */
    public JobFolder copyFile(Node node, String path, String target) {
        resolve(target);
        nodeCopies.add(new NodeCopy(node, path, target));
        return this;
    }

    /**
     * Copies all files of a stored node (a folder's tree) into {@code target} ("" for the folder
     * itself) when the job is uploaded; see {@link NodeCopy}.
     *
     * @return this folder, for chaining
     */
    public JobFolder copyTree(Node node, String target) {
        if (!target.isEmpty()) {
            resolve(target);
        }
        nodeCopies.add(new NodeCopy(node, null, target));
        return this;
    }

    /** The copies from nodes asked for so far, in order; the engine makes them at upload. */
    public List<NodeCopy> nodeCopies() {
        return List.copyOf(nodeCopies);
    }

    /** The folder itself, for writing files by other means (binary data, copies). */
    public Path root() {
        return root;
    }

    private Path resolve(String relativePath) {
        Path target = root.resolve(relativePath).normalize();
        if (!target.startsWith(root) || Path.of(relativePath).isAbsolute()) {
            throw new InvalidInputException("'" + relativePath + "' is not a path inside the job folder");
        }
        return target;
    }
}
