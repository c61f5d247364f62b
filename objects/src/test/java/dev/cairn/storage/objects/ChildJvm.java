package dev.cairn.storage.objects;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A {@link ContainerDriver} in a JVM of its own: a real process that tests can run, read and kill -9. */
final class ChildJvm implements AutoCloseable {

    private final Process process;
    private final BufferedReader out;

    private ChildJvm(Process process) {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    static ChildJvm start(List<String> jvmArgs, String... driverArgs) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(java());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(classPath());
        cmd.add(ContainerDriver.class.getName());
        cmd.addAll(List.of(driverArgs));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT);
        return new ChildJvm(pb.start());
    }

    static ChildJvm start(String... driverArgs) throws IOException {
        return start(List.of(), driverArgs);
    }

    private static String java() {
        String configured = System.getenv("CAIRN_TEST_JAVA");
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        return ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    private static String classPath() {
        // surefire and failsafe run tests from a manifest-only jar; they give the real class path here
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }

    long pid() {
        return process.pid();
    }

    /** The next line the child prints, waiting at most {@code seconds}. */
    String readLine(long seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (out.ready()) {
                return out.readLine();
            }
            if (!process.isAlive() && !out.ready()) {
                return out.readLine();
            }
            Thread.sleep(10);
        }
        throw new IllegalStateException("the child printed nothing for " + seconds + " s");
    }

    boolean hasEnded() {
        return !process.isAlive();
    }

    /** Tells the child to go on (it reads a line from its standard input). */
    void proceed() throws IOException {
        process.getOutputStream().write('\n');
        process.getOutputStream().flush();
    }

    /** Waits for the end of the child; returns its exit code. */
    int waitFor(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("the child did not end within " + seconds + " s");
        }
        return process.exitValue();
    }

    /** SIGKILL: no shutdown hooks, no finally blocks, exactly like a crash or the OOM killer. */
    void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
