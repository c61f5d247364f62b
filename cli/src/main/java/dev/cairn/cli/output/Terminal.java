package dev.cairn.cli.output;

import java.io.Console;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the command line knows of where its output goes: whether standard output is a terminal
 * (colour and progress bars only there), whether colour is wanted ({@code NO_COLOR}, {@code --no-color}),
 * and how many columns a table may take.
 */
public record Terminal(boolean interactive, boolean colour, int width) {

    /** Width for output that is not a terminal's: tables are not cut for a file or a pipe. */
    static final int UNLIMITED = Integer.MAX_VALUE;

    /** The terminal of this process, as the environment describes it. */
    public static Terminal detect(Map<String, String> env, boolean noColour) {
        boolean interactive = stdoutIsTerminal();
        boolean colour = interactive && !noColour && env.get("NO_COLOR") == null && !"dumb".equals(env.get("TERM"));
        return new Terminal(interactive, colour, width(env, interactive));
    }

    private static int width(Map<String, String> env, boolean interactive) {
        String columns = env.get("COLUMNS");
        if (columns != null) {
            try {
                int width = Integer.parseInt(columns.strip());
                if (width > 0) {
                    return width;
                }
            } catch (NumberFormatException e) {
                // a shell variable of another kind: ask the terminal
            }
        }
        return interactive ? ttyColumns() : UNLIMITED;
    }

    /**
     * The terminal's columns from {@code stty size} on {@code /dev/tty}: shells do not export
     * COLUMNS, and the JDK cannot ask. Only run when the output is a terminal; 80 when it fails.
     */
    private static int ttyColumns() {
        try {
            Process stty = new ProcessBuilder("stty", "size")
                    .redirectInput(
                            ProcessBuilder.Redirect.from(Path.of("/dev/tty").toFile()))
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            String size = new String(stty.getInputStream().readAllBytes()).strip();
            if (stty.waitFor(1, TimeUnit.SECONDS) && stty.exitValue() == 0) {
                String[] rowsColumns = size.split("\\s+");
                if (rowsColumns.length == 2) {
                    return Integer.parseInt(rowsColumns[1]);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // no stty, no /dev/tty: the common width
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 80;
    }

    /**
     * {@code Console.isTerminal()} (JDK 22) where the JDK has it: from JDK 22 on {@code System.console()}
     * is not null for a pipe. On older JDKs a console exists only for a terminal; on Linux
     * {@code /proc/self/fd/1} says it for both.
     */
    private static boolean stdoutIsTerminal() {
        Path stdout = Path.of("/proc/self/fd/1");
        if (Files.exists(stdout)) {
            try {
                String target = Files.readSymbolicLink(stdout).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
            } catch (IOException | UnsupportedOperationException e) {
                // fall through to the console
            }
        }
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = console.getClass().getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }
}
