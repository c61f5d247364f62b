package dev.cairn.cli.output;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;

import tools.jackson.databind.JsonNode;

import dev.cairn.cli.client.JsonTrees;

/**
 * Where a command writes: results to standard output (a table, lines, or JSON with {@code --json}),
 * messages and progress to standard error, so that {@code cairn ... --json | jq} gets only data.
 */
public final class Output {

    private final PrintWriter out;
    private final PrintWriter err;
    private final Terminal terminal;
    private final boolean json;
    private final Instant now = Instant.now();

    public Output(PrintWriter out, PrintWriter err, Terminal terminal, boolean json) {
        this.out = out;
        this.err = err;
        this.terminal = terminal;
        this.json = json;
    }

    /** Whether {@code --json} asked for data rather than a table. */
    public boolean json() {
        return json;
    }

    public Style style() {
        return new Style(terminal.colour());
    }

    public Terminal terminal() {
        return terminal;
    }

    public PrintWriter out() {
        return out;
    }

    public PrintWriter err() {
        return err;
    }

    /** The moment the command started, for "3 min ago". */
    public Instant now() {
        return now;
    }

    public String ago(String iso) {
        return RelativeTime.ago(iso, now);
    }

    public void print(JsonNode node) {
        out.println(JsonTrees.pretty(node));
        out.flush();
    }

    public void print(TextTable table) {
        List<String> lines = table.render(terminal.width(), style());
        for (String line : lines) {
            out.println(line);
        }
        out.flush();
    }

    public void line(String text) {
        out.println(text);
        out.flush();
    }

    /**
     * Ends what standard error's current line shows (a progress bar, the {@code ^C} a terminal echoed) before a
     * message: on a terminal the line is cleared, elsewhere a new line is begun.
     */
    public void endLine() {
        if (terminal.interactive()) {
            err.print(Progress.CLEAR_LINE);
        } else {
            err.println();
        }
        err.flush();
    }

    /** A message for the person, not the data: standard error. */
    public void note(String text) {
        err.println(text);
        err.flush();
    }

    public Progress progress(String label, long total) {
        return new Progress(err, terminal.interactive(), label, total);
    }

    /** A progress bar of bytes (an upload against its file's size), drawn as sizes. */
    public Progress byteProgress(String label, long total) {
        return new Progress(err, terminal.interactive(), label, total, true);
    }
}
