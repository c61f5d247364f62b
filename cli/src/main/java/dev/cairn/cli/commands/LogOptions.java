package dev.cairn.cli.commands;

import picocli.CommandLine.Option;

/** {@code -n} and {@code -f} of {@code server logs} and {@code worker logs}. */
final class LogOptions {

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
}
