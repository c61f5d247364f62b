package dev.cairn.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JVM stopped by a signal while a bar is drawn (Ctrl-C) leaves a clean line saying how far the work got. */
class ProgressInterruptTest {

    @TempDir
    Path dir;

    /**
     * Draws a bar at 3 of 10 on a terminal and says so on standard output; then waits to be stopped, or
     * with {@code close} closes the bar and ends as a command that finished does.
     */
    public static void main(String[] args) throws InterruptedException {
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        Output out = new Output(new PrintWriter(System.out), err, new Terminal(true, true, 80), false);
        Progress progress = out.progress("killing processes", 10);
        progress.advance(3);
        System.out.println("drawn");
        System.out.flush();
        if (args.length == 0) {
            Thread.sleep(60_000);
        }
        progress.close();
    }

    /** The JVM's standard error goes to a file: destroying a process closes the streams to it. */
    private static Process start(Path err, String... args) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(
                java.toString(), "-cp", System.getProperty("java.class.path"), ProgressInterruptTest.class.getName()));
        command.addAll(List.of(args));
        Process process =
                new ProcessBuilder(command).redirectError(err.toFile()).start();
        BufferedReader stdout =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("drawn", stdout.readLine());
        return process;
    }

    private static String errorsAfterExit(Process process, Path err) throws Exception {
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the JVM stopped");
        return Files.readString(err);
    }

    @Test
    void aSignalDuringTheBarClearsItsLineAndSaysHowFarItGot() throws Exception {
        Path errors = dir.resolve("err");
        Process process = start(errors);
        process.destroy(); // SIGTERM: the JVM runs its shutdown hooks, as on Ctrl-C's SIGINT
        String err = errorsAfterExit(process, errors);
        assertTrue(err.startsWith(Progress.CLEAR_LINE + "killing processes [...."), err);
        assertTrue(
                err.endsWith(
                        Progress.CLEAR_LINE + "killing processes: interrupted after 3 of 10" + System.lineSeparator()),
                "the bar's line cleared and how far it got: " + err.replace("\u001b", "ESC"));
    }

    @Test
    void aBarClosedBeforeTheEndSaysNothingAtExit() throws Exception {
        Path errors = dir.resolve("err");
        String err = errorsAfterExit(start(errors, "close"), errors);
        assertTrue(err.endsWith(Progress.CLEAR_LINE), "the bar's line cleared at its close: " + err);
        assertFalse(err.contains("interrupted"), "a closed bar's hook is gone: " + err);
    }
}
