package dev.cairn.engine.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.cairn.errors.InvalidInputException;

/**
 * The folder a calculation job's {@code prepare} writes its input files into; it is uploaded as the
 * work directory. What is written here is kept on the job's node when it is submitted; a portable
 * code's files join the folder afterwards (where a path is taken, the job's file stays).
 */
public final class JobFolder {

    private final Path root;

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
