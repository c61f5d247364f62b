package dev.cairn.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Writes a man page (troff, section 1) for {@code cairn} and each of its commands, from the same model
 * picocli prints {@code --help} from, so the two never disagree. The build runs it into the
 * distribution's {@code share/man/man1} (cli/src/build/finish-distribution.sh): {@code man cairn-process-list}.
 */
final class ManPages {

    private ManPages() {}

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        Files.createDirectories(dir);
        List<CommandLine> all = new ArrayList<>();
        collect(CairnCommand.commandLine(), all);
        for (CommandLine command : all) {
            Files.writeString(
                    dir.resolve(pageName(command.getCommandSpec()) + ".1"), page(command), StandardCharsets.UTF_8);
        }
        System.out.println("wrote " + all.size() + " man pages to " + dir);
    }

    /** {@code command} and every command under it, each once, parents before their subcommands. */
    static void collect(CommandLine command, List<CommandLine> into) {
        into.add(command);
        for (CommandLine sub : command.getSubcommands().values()) {
            if (!into.contains(sub)) {
                collect(sub, into);
            }
        }
    }

    static String pageName(CommandSpec spec) {
        return spec.qualifiedName("-");
    }

    static String page(CommandLine command) {
        CommandSpec spec = command.getCommandSpec();
        StringBuilder man = new StringBuilder();
        String title = pageName(spec).toUpperCase(Locale.ROOT);
        man.append(".TH \"")
                .append(title)
                .append("\" 1 \"")
                .append(LocalDate.now())
                .append("\" \"cairn\" \"Cairn Manual\"\n");
        man.append(".SH NAME\n")
                .append(escape(pageName(spec)))
                .append(" \\- ")
                .append(escape(first(spec.usageMessage().description())))
                .append('\n');
        man.append(".SH SYNOPSIS\n.nf\n")
                .append(escape(plain(command.getHelp().synopsis(0)).strip()))
                .append("\n.fi\n");
        String[] description = spec.usageMessage().description();
        if (description.length > 0) {
            man.append(".SH DESCRIPTION\n");
            for (String line : description) {
                man.append(escape(help(line))).append("\n.br\n");
            }
        }
        if (!spec.positionalParameters().isEmpty()) {
            man.append(".SH ARGUMENTS\n");
            for (PositionalParamSpec parameter : spec.positionalParameters()) {
                man.append(".TP\n\\fB")
                        .append(escape(parameter.paramLabel()))
                        .append("\\fR\n")
                        .append(escape(help(String.join(" ", parameter.description()))))
                        .append('\n');
            }
        }
        if (!spec.options().isEmpty()) {
            man.append(".SH OPTIONS\n");
            for (OptionSpec option : spec.options()) {
                if (option.hidden()) {
                    continue;
                }
                man.append(".TP\n\\fB")
                        .append(escape(String.join(", ", option.names())))
                        .append("\\fR");
                if (option.arity().max() > 0) {
                    man.append(" \\fI").append(escape(option.paramLabel())).append("\\fR");
                }
                man.append('\n')
                        .append(escape(help(String.join(" ", option.description())
                                .replace("${DEFAULT-VALUE}", String.valueOf(option.defaultValue())))))
                        .append('\n');
            }
        }
        if (!command.getSubcommands().isEmpty()) {
            man.append(".SH COMMANDS\n");
            command.getSubcommands().forEach((name, sub) -> {
                if (name.equals(sub.getCommandName())) {
                    man.append(".TP\n\\fB")
                            .append(escape(name))
                            .append("\\fR\n")
                            .append(escape(
                                    first(sub.getCommandSpec().usageMessage().description())))
                            .append('\n')
                            .append("See \\fB")
                            .append(escape(pageName(sub.getCommandSpec())))
                            .append("\\fR(1).\n");
                }
            });
        }
        String[] footer = spec.root().usageMessage().footer();
        man.append(".SH EXIT STATUS\n");
        for (String line : footer) {
            if (line.startsWith("Exit codes")) {
                man.append(escape(line)).append('\n');
            }
        }
        man.append(".SH SEE ALSO\n\\fBcairn\\fR(1), \\fBcairn --help\\fR\n");
        return man.toString();
    }

    static String first(String[] lines) {
        return lines.length == 0 ? "" : help(lines[0]);
    }

    /**
     * A line of help as picocli prints it: a format string ({@code %%} a percent sign, {@code %n} a line
     * break), without its markup.
     */
    static String help(String text) {
        return String.format(Locale.ROOT, plain(text));
    }

    /** Help text without picocli's markup ({@code @|bold x|@}) and with its defaults resolved. */
    static String plain(String text) {
        return text.replaceAll("@\\|\\S+ ([^|]*)\\|@", "$1");
    }

    /** Backslashes and line-leading dots and quotes mean something to troff. */
    private static String escape(String text) {
        String escaped = text.replace("\\", "\\e").replace("-", "\\-");
        StringBuilder out = new StringBuilder();
        for (String line : escaped.split("\n", -1)) {
            if (!out.isEmpty()) {
                out.append('\n');
            }
            if (line.startsWith(".") || line.startsWith("'")) {
                out.append("\\&");
            }
            out.append(line);
        }
        return out.toString();
    }
}
