package dev.cairn.cli;

import java.io.PrintWriter;

import picocli.CommandLine;
import picocli.CommandLine.Help.ColorScheme;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IExitCodeExceptionMapper;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.options.Session;

/**
 * What a failed command prints and exits with: one line {@code cairn: <what was wrong>}, a hint line
 * when there is something to do about it, and the stack trace only with {@code --verbose}. A failure
 * that is no {@link CliException} is a fault of the command line itself, and says so. A command line
 * that does not parse gets the same one line and a hint, not the command's whole usage (which
 * buried the line that said what was wrong); a group of commands given none still lists them.
 */
final class FailureHandler implements IExecutionExceptionHandler, IExitCodeExceptionMapper, IParameterExceptionHandler {

    @Override
    public int handleParseException(ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        PrintWriter err = command.getErr();
        err.println(command.getColorScheme().errorText("cairn: " + e.getMessage()));
        UnmatchedArgumentException.printSuggestions(e, err);
        if (command.getSubcommands().isEmpty()) {
            err.println("hint: " + command.getCommandSpec().qualifiedName() + " --help lists its options");
        } else {
            command.usage(err, command.getColorScheme());
        }
        err.flush();
        return ExitCodes.USAGE;
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine command, ParseResult parsed) {
        PrintWriter err = command.getErr();
        ColorScheme style = command.getColorScheme();
        if (e instanceof CliException failure) {
            err.println(style.errorText("cairn: " + failure.getMessage()));
            failure.hint().ifPresent(hint -> err.println("hint: " + hint));
        } else {
            err.println(style.errorText("cairn: an internal error: " + e));
            err.println("hint: run again with --verbose and report the stack trace");
        }
        if (verbose(command)) {
            e.printStackTrace(err);
        }
        err.flush();
        return getExitCode(e);
    }

    @Override
    public int getExitCode(Throwable e) {
        return switch (e) {
            case CliException failure -> failure.exitCode();
            case ParameterException usage -> ExitCodes.USAGE;
            default -> ExitCodes.FAILED;
        };
    }

    private static boolean verbose(CommandLine command) {
        return command.getMixins().get(Session.MIXIN) instanceof Session session && session.verbose();
    }
}
