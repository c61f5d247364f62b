package dev.cairn.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.commands.CompletionCommand;
import dev.cairn.cli.commands.DbCommand;
import dev.cairn.cli.commands.ProfileCommand;
import dev.cairn.cli.commands.ServerCommand;
import dev.cairn.cli.commands.StatusCommand;
import dev.cairn.cli.commands.UpCommand;
import dev.cairn.cli.commands.WorkerCommand;

/** {@code cairn}: the root command, which only lists the others. */
@Command(
        name = "cairn",
        mixinStandardHelpOptions = true,
        // --help (and --version) on every command, which picocli does not give subcommands on its own
        scope = ScopeType.INHERIT,
        versionProvider = CairnVersion.class,
        description = "Cairn's command line: runs and inspects workflows on a Cairn server.",
        footer = {"", ExitCodes.LEGEND, "", "`cairn COMMAND --help` tells more of each command."},
        subcommands = {
            UpCommand.class,
            StatusCommand.class,
            ServerCommand.class,
            WorkerCommand.class,
            DbCommand.class,
            ProfileCommand.class,
            CompletionCommand.class
        })
public final class CairnCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command tree with Cairn's failure handling, as {@code main} runs it and tests drive it. */
    public static CommandLine commandLine() {
        Failures failures = new Failures();
        return new CommandLine(new CairnCommand())
                .setExecutionExceptionHandler(failures)
                .setExitCodeExceptionMapper(failures)
                .setCaseInsensitiveEnumValuesAllowed(true);
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a command is needed");
    }
}
