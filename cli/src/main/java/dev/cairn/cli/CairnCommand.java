package dev.cairn.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.commands.archive.ArchiveCommand;
import dev.cairn.cli.commands.calcjob.CalcjobCommand;
import dev.cairn.cli.commands.code.CodeCommand;
import dev.cairn.cli.commands.completion.CompletionCommand;
import dev.cairn.cli.commands.computer.ComputerCommand;
import dev.cairn.cli.commands.db.DbCommand;
import dev.cairn.cli.commands.group.GroupCommand;
import dev.cairn.cli.commands.node.NodeCommand;
import dev.cairn.cli.commands.plugin.PluginCommand;
import dev.cairn.cli.commands.process.ProcessCommand;
import dev.cairn.cli.commands.profile.ProfileCommand;
import dev.cairn.cli.commands.query.QueryCommand;
import dev.cairn.cli.commands.server.ServerCommand;
import dev.cairn.cli.commands.shell.ShellCommand;
import dev.cairn.cli.commands.status.StatusCommand;
import dev.cairn.cli.commands.storage.StorageCommand;
import dev.cairn.cli.commands.token.TokenCommand;
import dev.cairn.cli.commands.up.UpCommand;
import dev.cairn.cli.commands.user.UserCommand;
import dev.cairn.cli.commands.worker.WorkerCommand;

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
            ShellCommand.class,
            QueryCommand.class,
            ComputerCommand.class,
            CodeCommand.class,
            GroupCommand.class,
            UserCommand.class,
            TokenCommand.class,
            PluginCommand.class,
            StorageCommand.class,
            ArchiveCommand.class,
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
     * The tree {@code args} need. picocli reads the annotations of every command it is given, by
     * reflection, at each start, and with the whole tree that was most of a start (docs/performance.md,
     * the command line). So the commands {@code args} name are built whole, and each command
     * on the way to them, and every command that only has to be listed in a help, is a bare spec with
     * its name and description. Anything else (a word no command has: picocli suggests the nearest) gets
     * the whole tree.
     */
    public static CommandLine commandLine(String[] args) {
        List<String> words = new ArrayList<>();
        for (String arg : args) {
            if (arg.startsWith("-")) {
                break;
            }
            words.add(arg);
        }
        if (words.isEmpty()) {
            return withSpecs(COMMANDS.stream().map(CairnCommand::bare).toList());
        }
        Class<?> top = named(COMMANDS, words.getFirst());
        if (top == null || CompletionCommand.class.equals(top)) {
            return commandLine();
        }
        return withSpecs(List.of(along(top, words.subList(1, words.size()))));
    }

    /**
     * {@code command} whole when no further word names one of its subcommands; else a bare spec of it
     * with that subcommand (built the same way) and the others bare, for its help.
     */
    private static CommandSpec along(Class<?> command, List<String> words) {
        Class<?>[] subcommands = command.getAnnotation(Command.class).subcommands();
        Class<?> next = words.isEmpty() ? null : named(List.of(subcommands), words.getFirst());
        if (next == null) {
            return CommandSpec.forAnnotatedObject(command);
        }
        CommandSpec spec = bare(command);
        for (Class<?> subcommand : subcommands) {
            CommandSpec sub = subcommand == next ? along(next, words.subList(1, words.size())) : bare(subcommand);
            spec.addSubcommand(sub.name(), new CommandLine(sub));
        }
        return spec;
    }

    /** A command as a help lists it: its name, aliases and description, nothing read by reflection. */
    private static CommandSpec bare(Class<?> command) {
        Command annotation = command.getAnnotation(Command.class);
        CommandSpec spec = CommandSpec.create().name(annotation.name()).aliases(annotation.aliases());
        spec.usageMessage().description(annotation.description()).hidden(annotation.hidden());
        return spec;
    }

    private static Class<?> named(List<Class<?>> commands, String name) {
        for (Class<?> command : commands) {
            Command annotation = command.getAnnotation(Command.class);
            if (annotation.name().equals(name)
                    || Arrays.asList(annotation.aliases()).contains(name)) {
                return command;
            }
        }
        return null;
    }

    private static CommandLine withSpecs(List<CommandSpec> commands) {
        FailureHandler failures = new FailureHandler();
        CommandLine root = new CommandLine(new CairnCommand())
                .setExecutionExceptionHandler(failures)
                .setParameterExceptionHandler(failures)
                .setExitCodeExceptionMapper(failures);
        for (CommandSpec command : commands) {
            root.addSubcommand(command.name(), new CommandLine(command));
        }
        return root.setCaseInsensitiveEnumValuesAllowed(true);
    }

    private static CommandLine withCommands(List<Class<?>> commands) {
        FailureHandler failures = new FailureHandler();
        CommandLine root = new CommandLine(new CairnCommand())
                .setExecutionExceptionHandler(failures)
                .setParameterExceptionHandler(failures)
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
