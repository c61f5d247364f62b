package dev.cairn.engine.scheduler;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.cairn.engine.transport.CommandResult;
import dev.cairn.engine.transport.Transport;
import dev.cairn.engine.transport.TransportException;

/**
 * This machine as a computer, for the scheduler's integration tests: commands through
 * {@code /bin/sh -c} with ProcessBuilder, files with NIO. Test-only, so that these tests do not wait
 * for the engine's {@code LocalTransport}; {@code environment} is added to every command's (SLURM_CONF).
 */
final class ShellTransport implements Transport {

    private final Map<String, String> environment;

    ShellTransport(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    ShellTransport() {
        this(Map.of());
    }

    @Override
    public CommandResult exec(String command, String workdir, Duration timeout) {
        var pb = new ProcessBuilder("/bin/sh", "-c", command)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        if (workdir != null)
            pb.directory(Path.of(workdir).toFile());
        pb.environment().putAll(environment);
        try {
            Process p = pb.start();
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> drain(p.getInputStream()));
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new TransportException("'" + command + "' took longer than " + timeout, true, null);
            }
            return new CommandResult(p.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new TransportException("cannot run '" + command + "': " + e.getMessage(), false, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransportException("interrupted running '" + command + "'", true, e);
        }
    }

    private static String drain(InputStream in) {
        try (in) {
            var buffer = new ByteArrayOutputStream();
            in.transferTo(buffer);
            return buffer.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void mkdirs(String path) {
        io(() -> Files.createDirectories(Path.of(path)));
    }

    @Override
    public void write(String path, byte[] content) {
        io(() -> Files.write(Path.of(path), content));
    }

    @Override
    public void put(Path local, String path) {
        io(() -> Files.copy(local, Path.of(path), StandardCopyOption.REPLACE_EXISTING));
    }

    @Override
    public byte[] read(String path) {
        try {
            return Files.readAllBytes(Path.of(path));
        } catch (IOException e) {
            throw new TransportException("cannot read " + path + ": " + e, false, e);
        }
    }

    @Override
    public void get(String path, Path local) {
        io(() -> Files.copy(Path.of(path), local, StandardCopyOption.REPLACE_EXISTING));
    }

    @Override
    public boolean exists(String path) {
        return Files.exists(Path.of(path));
    }

    @Override
    public boolean isDirectory(String path) {
        return Files.isDirectory(Path.of(path));
    }

    @Override
    public List<String> list(String directory) {
        try (Stream<Path> s = Files.list(Path.of(directory))) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new TransportException("cannot list " + directory + ": " + e, false, e);
        }
    }

    @Override
    public void remove(String path) {
        Path p = Path.of(path);
        if (!Files.exists(p))
            return;
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList())
                Files.delete(q);
        } catch (IOException e) {
            throw new TransportException("cannot remove " + path + ": " + e, false, e);
        }
    }

    @Override
    public void close() {
    }

    private interface IoAction {
        Object run() throws IOException;
    }

    private static void io(IoAction action) {
        try {
            action.run();
        } catch (IOException e) {
            throw new TransportException(e.toString(), false, e);
        }
    }
}
