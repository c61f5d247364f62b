package dev.cairn.cli;

import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.commands.CalcjobCommand;
import dev.cairn.cli.commands.CodeCommand;
import dev.cairn.cli.commands.CompletionCommand;
import dev.cairn.cli.commands.ComputerCommand;
import dev.cairn.cli.commands.DbCommand;
import dev.cairn.cli.commands.GroupCommand;
import dev.cairn.cli.commands.NodeCommand;
import dev.cairn.cli.commands.PluginCommand;
import dev.cairn.cli.commands.ProcessCommand;
import dev.cairn.cli.commands.ProfileCommand;
import dev.cairn.cli.commands.QueryCommand;
import dev.cairn.cli.commands.ServerCommand;
import dev.cairn.cli.commands.StatusCommand;
import dev.cairn.cli.commands.StorageCommand;
import dev.cairn.cli.commands.TokenCommand;
import dev.cairn.cli.commands.UpCommand;
import dev.cairn.cli.commands.UserCommand;
import dev.cairn.cli.commands.WorkerCommand;

/** {@code cairn}: the root command, which only lists the others. */
@Command(
        name = "cairn",
        mixinStandardHelpOptions = true,
        // --help (and --version) on every command, which picocli does not give subcommands on its own
        scope = ScopeType.INHERIT,
        versionProvider = CairnVersion.class,
        description = "Cairn's command line: runs and inspects workflows on a Cairn server.",
        footer = {"", ExitCodes.LEGEND, "", "`cairn COMMAND --help` tells more of each command."})
public final class CairnCommand implements Runnable {

    /** The commands, in the order {@code cairn --help} lists them. */
    static final List<Class<?>> COMMANDS = List.of(
            UpCommand.class,
            StatusCommand.class,
            ProcessCommand.class,
            NodeCommand.class,
            CalcjobCommand.class,
            QueryCommand.class,
            ComputerCommand.class,
            CodeCommand.class,
            GroupCommand.class,
            UserCommand.class,
            TokenCommand.class,
            PluginCommand.class,
            StorageCommand.class,
            ServerCommand.class,
            WorkerCommand.class,
            DbCommand.class,
            ProfileCommand.class,
            CompletionCommand.class);

    @Spec
    private CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine(args).execute(args));
    }

    /** The whole command tree with Cairn's failure handling: for help, completion and man pages. */
    public static CommandLine commandLine() {
        return withCommands(COMMANDS);
    }

    /**
     * The tree {@code args} need: only the command they name when they name one. picocli reads the
     * annotations of every command it is given, by reflection, at each start; one command's tree
     * instead of all of them is most of {@code cairn process list}'s time in picocli. Anything else
     * (help, a typo that wants suggestions) gets the whole tree.
     */
    public static CommandLine commandLine(String[] args) {
        String name = null;
        for (String arg : args) {
            if (!arg.startsWith("-")) {
                name = arg;
                break;
            }
        }
        if (name == null) {
            return commandLine();
        }
        for (Class<?> command : COMMANDS) {
            Command annotation = command.getAnnotation(Command.class);
            if (annotation.name().equals(name) || List.of(annotation.aliases()).contains(name)) {
                return CompletionCommand.class.equals(command) ? commandLine() : withCommands(List.of(command));
            }
        }
        return commandLine();
    }

    private static CommandLine withCommands(List<Class<?>> commands) {
        Failures failures = new Failures();
        CommandLine root = new CommandLine(new CairnCommand())
                .setExecutionExceptionHandler(failures)
                .setExitCodeExceptionMapper(failures);
        for (Class<?> command : commands) {
            root.addSubcommand(command);
        }
        // after the subcommands: the setting is applied to the commands present
        return root.setCaseInsensitiveEnumValuesAllowed(true);
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a command is needed");
    }
}
