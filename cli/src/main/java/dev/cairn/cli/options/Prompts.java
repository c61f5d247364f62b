package dev.cairn.cli.options;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;

/**
 * Questions to the person at the terminal: the fields a command still needs ({@code computer setup}),
 * and whether to go ahead with something that cannot be undone. Only when standard input is a terminal;
 * otherwise a missing field is a usage error naming it and how to give it, and a destructive action
 * needs {@code --force}, so a script never hangs on a question nobody sees.
 */
public final class Prompts {

    /** A field a command may ask for: its name, the option and file field that give it, its question. */
    public record Field(String name, String option, String question, String fallback, boolean required) {}

    private final boolean interactive;
    private final PrintWriter err;
    private BufferedReader in;

    private Prompts(boolean interactive, PrintWriter err) {
        this.interactive = interactive;
        this.err = err;
    }

    /** Questions on standard error, answers from standard input, when it is a terminal and asking is allowed. */
    public static Prompts of(boolean mayAsk, PrintWriter err) {
        return new Prompts(mayAsk && stdinIsTerminal(), err);
    }

    public boolean interactive() {
        return interactive;
    }

    /**
     * The given value, else the answer at the terminal (the fallback when the answer is empty), else the
     * fallback; a usage error naming the field when it is required and nothing gives it.
     */
    public String value(String given, Field field, String fileHint) {
        if (given != null) {
            return given;
        }
        if (interactive) {
            String shown = field.fallback() == null ? "" : " [" + field.fallback() + "]";
            while (true) {
                String answer = readLine(field.question() + shown + ": ");
                if (!answer.isBlank()) {
                    return answer.strip();
                }
                if (field.fallback() != null || !field.required()) {
                    return field.fallback();
                }
                err.println("  " + field.name() + " is required");
            }
        }
        if (field.fallback() != null || !field.required()) {
            return field.fallback();
        }
        throw CliException.usage("missing " + field.name() + ": give " + field.option()
                + (fileHint == null ? "" : " or '" + fileHint + ":' in the --config file")
                + " (questions are asked only when standard input is a terminal)");
    }

    /**
     * Whether to go ahead with {@code action} (e.g. "delete computer 'x'"): yes with {@code --force}; else the
     * answer at the terminal; without one a usage error, since nobody is there to answer.
     */
    public boolean confirm(String action, boolean force) {
        if (force) {
            return true;
        }
        if (!interactive) {
            throw CliException.usage("not done: to " + action + " without a question, give --force (standard input"
                    + " is not a terminal)");
        }
        String question = Character.toUpperCase(action.charAt(0)) + action.substring(1) + "?";
        String answer = readLine(question + " [y/N] ").strip().toLowerCase(Locale.ROOT);
        return answer.equals("y") || answer.equals("yes");
    }

    private String readLine(String prompt) {
        err.print(prompt);
        err.flush();
        try {
            if (in == null) {
                in = new BufferedReader(new InputStreamReader(System.in, Charset.defaultCharset()));
            }
            String line = in.readLine();
            if (line == null) {
                throw new CliException(ExitCodes.INTERRUPTED, "no answer: standard input ended", null);
            }
            return line;
        } catch (IOException e) {
            throw new CliException(ExitCodes.FAILED, "reading the answer: " + e.getMessage(), null, e);
        }
    }

    /** Whether standard input is a terminal: on Linux what fd 0 links to, elsewhere whether there is a console. */
    private static boolean stdinIsTerminal() {
        Path stdin = Path.of("/proc/self/fd/0");
        if (Files.exists(stdin)) {
            try {
                String target = Files.readSymbolicLink(stdin).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
            } catch (IOException | UnsupportedOperationException e) {
                return false;
            }
        }
        return System.console() != null;
    }
}
