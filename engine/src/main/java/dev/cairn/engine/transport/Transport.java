package dev.cairn.engine.transport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How the engine reaches a computer: files in and out of its file system, and commands run
 * there. Paths are absolute POSIX paths on the computer. Every failure is a
 * {@link TransportException} that says whether trying again may help.
 * Implementations: {@link LocalTransport} (this machine) and {@link SshTransport}.
 */
public interface Transport extends AutoCloseable {

    /**
     * Runs {@code command} with {@code /bin/sh -c} in {@code workdir} (null: the login directory),
     * with no input. After {@code timeout} the command and every process it started are killed
     * and a transient {@link TransportException} is thrown; a missing {@code workdir} is a
     * non-transient one.
     */
    CommandResult exec(String command, String workdir, Duration timeout);

    /** Creates a directory and its missing parents; nothing happens if it exists. */
    void mkdirs(String path);

    /** Writes a file (replacing it), creating nothing but the file. */
    void write(String path, byte[] content);

    /**
     * Copies a local file or directory tree to {@code path}, keeping permission bits. A tree is
     * merged into a directory that already exists there; the parent of {@code path} must exist.
     */
    void put(Path local, String path);

    /** The content of a file. */
    byte[] read(String path);

    /** Copies a file or directory tree at {@code path} to a local path, as {@link #put} does the other way. */
    void get(String path, Path local);

    boolean exists(String path);

    boolean isDirectory(String path);

    /** The names in a directory, sorted. */
    List<String> list(String directory);

    /**
     * Removes a file or a directory tree; nothing happens if it does not exist. Symbolic links
     * are removed, never followed.
     */
    void remove(String path);

    @Override
    void close();
}
