package dev.cairn.engine.transport;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;
import static java.nio.file.StandardCopyOption.COPY_ATTRIBUTES;
import static java.nio.file.StandardCopyOption.REPLACE_EXISTING;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * The machine the engine runs on: files through NIO, commands through a kept {@code /bin/sh}
 * with {@code sh -c} semantics (see {@link LocalShell}). Nothing here is transient except a command's timeout: a local
 * file system that refuses an operation will refuse it again.
 * <p>
 * One made with a public constructor keeps shells of its own and ends them when it is closed;
 * one that a {@link TransportPool} opens runs its commands on the pool's shells, which the pool
 * ends when it closes.
 */
public final class LocalTransport implements Transport {

    private static final String HERE = " on this machine";

    private final Map<String, String> environment;
    private final LocalShells shells;
    private final boolean ownsShells;

    /** Commands run with this JVM's environment. */
    public LocalTransport() {
        this(Map.of());
    }

    /** Commands run with this JVM's environment plus {@code environment} (e.g. SLURM_CONF of a test cluster). */
    public LocalTransport(Map<String, String> environment) {
        this(environment, new LocalShells("this local transport"), true);
    }

    /** Commands run on {@code shells}, which this transport does not close. */
    LocalTransport(Map<String, String> environment, LocalShells shells) {
        this(environment, shells, false);
    }

    private LocalTransport(Map<String, String> environment, LocalShells shells, boolean ownsShells) {
        this.environment = Map.copyOf(environment);
        this.shells = shells;
        this.ownsShells = ownsShells;
    }

    @Override
    public CommandResult exec(String command, String workdir, Duration timeout) {
        Objects.requireNonNull(command, "command");
        requirePositive(timeout);
        Path dir = Path.of(workdir == null ? System.getProperty("user.home") : PosixPaths.absolute(workdir));
        if (!Files.isDirectory(dir)) {
            throw new TransportException(
                    "cannot run " + Commands.describe(command) + " in " + dir + HERE + ": no such directory",
                    false,
                    null);
        }
        return shells.run(command, dir, environment, timeout);
    }

    @Override
    public void mkdirs(String path) {
        Path p = path(path);
        try {
            Files.createDirectories(p);
        } catch (IOException e) {
            throw Failures.local("cannot create directory " + p + HERE, p.toString(), e);
        }
    }

    @Override
    public void write(String path, byte[] content) {
        Path p = path(path);
        try {
            Files.write(p, content);
        } catch (IOException e) {
            throw Failures.local("cannot write " + p + HERE, p.toString(), e);
        }
    }

    @Override
    public void put(Path local, String path) {
        Path p = path(path);
        try {
            copy(local, p);
        } catch (IOException e) {
            throw Failures.local("cannot put " + local + " to " + p + HERE, p.toString(), e);
        }
    }

    @Override
    public byte[] read(String path) {
        Path p = path(path);
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw Failures.local("cannot read " + p + HERE, p.toString(), e);
        }
    }

    @Override
    public void get(String path, Path local) {
        Path p = path(path);
        try {
            copy(p, local);
        } catch (IOException e) {
            throw Failures.local("cannot get " + p + HERE + " to " + local, p.toString(), e);
        }
    }

    @Override
    public boolean exists(String path) {
        return Files.exists(path(path));
    }

    @Override
    public boolean isDirectory(String path) {
        return Files.isDirectory(path(path));
    }

    @Override
    public List<String> list(String directory) {
        Path p = path(directory);
        try (Stream<Path> entries = Files.list(p)) {
            return entries.map(e -> e.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw Failures.local("cannot list " + p + HERE, p.toString(), e);
        }
    }

    @Override
    public void remove(String path) {
        Path p = Path.of(PosixPaths.removable(path));
        try {
            if (Files.exists(p, NOFOLLOW_LINKS)) {
                Files.walkFileTree(p, new Remover());
            }
        } catch (IOException e) {
            throw Failures.local("cannot remove " + p + HERE, p.toString(), e);
        }
    }

    /**
     * Ends the shells this transport keeps, if it keeps its own; files need nothing (every call
     * opens and closes what it uses).
     */
    @Override
    public void close() {
        if (ownsShells) {
            shells.close();
        }
    }

    @Override
    public String toString() {
        return "local";
    }

    private static Path path(String path) {
        return Path.of(PosixPaths.absolute(path));
    }

    static void requirePositive(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new InvalidInputException("a command's timeout must be positive, not " + timeout);
        }
    }

    /**
     * Copies a file, or a tree into a directory that may already exist (its entries are
     * merged). Files keep their permissions and modification time.
     */
    private static void copy(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            Files.copy(from, to, REPLACE_EXISTING, COPY_ATTRIBUTES);
            return;
        }
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Path target = to.resolve(from.relativize(dir).toString());
                if (!Files.isDirectory(target)) {
                    Files.createDirectory(target);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, to.resolve(from.relativize(file).toString()), REPLACE_EXISTING, COPY_ATTRIBUTES);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /**
     * Deletes a tree bottom-up without following symbolic links, so a link to a directory
     * elsewhere loses the link, not the directory. Entries that vanish meanwhile are fine.
     */
    private static final class Remover extends SimpleFileVisitor<Path> {

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
            Files.deleteIfExists(file);
            return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (e instanceof NoSuchFileException) {
                return FileVisitResult.CONTINUE;
            }
            throw e;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
            if (e != null && !(e instanceof NoSuchFileException)) {
                throw e;
            }
            Files.deleteIfExists(dir);
            return FileVisitResult.CONTINUE;
        }
    }
}
