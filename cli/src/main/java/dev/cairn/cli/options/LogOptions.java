package dev.cairn.cli.options;

import java.nio.file.Files;

import picocli.CommandLine.Option;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.local.LocalRun;
import dev.cairn.cli.output.Output;

/** {@code -n} and {@code -f} of {@code server logs} and {@code worker logs}. */
public final class LogOptions {

    @Option(
            names = {"-n", "--lines"},
            paramLabel = "N",
            defaultValue = "50",
            description = "How many lines from the end (default: ${DEFAULT-VALUE}).")
    int lines;

    @Option(
            names = {"-f", "--follow"},
            description = "Go on printing what it logs, until Ctrl-C.")
    boolean follow;

    /** {@code logs} of the server or a worker: the last lines, then, with {@code --follow}, what comes. */
    public int print(Session session, LocalRun run) {
        if (lines < 0) {
            throw CliException.usage("--lines: " + lines + " is negative");
        }
        if (!Files.isRegularFile(run.log())) {
            throw new CliException(
                    ExitCodes.NOT_FOUND,
                    "no log of the " + run.name() + " at " + run.log(),
                    "is it the right data directory (--data-dir)?");
        }
        Output out = session.output();
        run.tail(lines).forEach(out::line);
        if (follow) {
            run.follow(out.out());
        }
        return ExitCodes.OK;
    }
}
