package dev.cairn.engine.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.cairn.errors.InvalidInputException;

/** The folder a calculation job's {@code prepare} writes its input files into; it is uploaded as the work directory. */
public final class JobFolder {

    private final Path root;

    public JobFolder(Path root) {
        this.root = root;
    }

    /** Writes a file at a relative path, creating its folders. */
    public JobFolder write(String relativePath, String content) throws IOException {
        Path target = resolve(relativePath);
        Files.createDirectories(target.getParent());
        Files.writeString(target, content);
        return this;
    }

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
