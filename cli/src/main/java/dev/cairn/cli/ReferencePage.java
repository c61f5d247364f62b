package dev.cairn.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Writes the command line's reference for the documentation site as one Markdown page: every command
 * with its synopsis, description, arguments, options and subcommands, from the model picocli prints
 * {@code --help} from (as {@link ManPages} writes the man pages), so the site never disagrees with the
 * tool. The build runs it into {@code cli/target/docs/cli.md} (cli/src/build/finish-distribution.sh);
 * {@code .ci/docs} copies it into the site as {@code reference/cli.md}.
 */
final class ReferencePage {

    private ReferencePage() {}

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        Files.createDirectories(file.toAbsolutePath().getParent());
        List<CommandLine> all = new ArrayList<>();
        ManPages.collect(CairnCommand.commandLine(), all);
        Map<String, OptionSpec> shared = shared(all);
        StringBuilder page = new StringBuilder();
        page.append("# Command line commands\n\n")
                .append("Every command of `cairn`, made from the same model as its `--help` and its man pages")
                .append(" (`man cairn-process-list`). How the commands choose their server, print and fail is")
                .append(" told in [Command line](command-line.md).\n\n")
                .append("## Options of every command { #options-of-every-command }\n\n")
                .append("Most commands take these; each section below lists the command's own.\n")
                .append(options(List.copyOf(shared.values())));
        for (CommandLine command : all) {
            page.append('\n').append(section(command, shared.keySet()));
        }
        Files.writeString(file, page.toString(), StandardCharsets.UTF_8);
        System.out.println("wrote the reference of " + all.size() + " commands to " + file);
    }

    /**
     * The options most commands share (the profile, the output, help): those, by their names and
     * description, that more than half of the commands without subcommands have.
     */
    static Map<String, OptionSpec> shared(List<CommandLine> all) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        Map<String, OptionSpec> specs = new LinkedHashMap<>();
        List<CommandLine> leaves =
                all.stream().filter(c -> c.getSubcommands().isEmpty()).toList();
        for (CommandLine command : leaves) {
            for (OptionSpec option : visible(command.getCommandSpec())) {
                counts.merge(key(option), 1, Integer::sum);
                specs.putIfAbsent(key(option), option);
            }
        }
        Map<String, OptionSpec> shared = new LinkedHashMap<>();
        counts.forEach((key, count) -> {
            if (count * 2 > leaves.size()) {
                shared.put(key, specs.get(key));
            }
        });
        return shared;
    }

    private static String key(OptionSpec option) {
        return String.join(", ", option.names()) + "\n" + String.join(" ", option.description());
    }

    private static List<OptionSpec> visible(CommandSpec spec) {
        return spec.options().stream().filter(o -> !o.hidden()).toList();
    }

    private static String options(List<OptionSpec> options) {
        StringBuilder md = new StringBuilder("\n| option | |\n|---|---|\n");
        for (OptionSpec option : options) {
            String names = String.join(", ", option.names());
            if (option.arity().max() > 0) {
                names += " " + option.paramLabel();
            }
            md.append("| `")
                    .append(cell(names))
                    .append("` | ")
                    .append(cell(text(String.join(" ", option.description())
                            .replace("${DEFAULT-VALUE}", String.valueOf(option.defaultValue())))))
                    .append(" |\n");
        }
        return md.toString();
    }

    static String section(CommandLine command, Set<String> shared) {
        CommandSpec spec = command.getCommandSpec();
        StringBuilder md = new StringBuilder();
        md.append("## ")
                .append(spec.qualifiedName(" "))
                .append(" { #")
                .append(anchor(spec))
                .append(" }\n\n");
        for (String line : spec.usageMessage().description()) {
            md.append(text(line)).append("  \n");
        }
        md.append("\n```\n")
                .append(ManPages.plain(command.getHelp().synopsis(0)).strip())
                .append("\n```\n");
        if (!spec.positionalParameters().isEmpty()) {
            md.append("\n| argument | |\n|---|---|\n");
            for (PositionalParamSpec parameter : spec.positionalParameters()) {
                md.append("| `")
                        .append(cell(parameter.paramLabel()))
                        .append("` | ")
                        .append(cell(text(String.join(" ", parameter.description()))))
                        .append(" |\n");
            }
        }
        List<OptionSpec> own =
                visible(spec).stream().filter(o -> !shared.contains(key(o))).toList();
        if (!own.isEmpty()) {
            md.append(options(own));
        }
        List<String> sharedHere = visible(spec).stream()
                .filter(o -> shared.contains(key(o)))
                .map(o -> "`" + o.longestName() + "`")
                .toList();
        if (!sharedHere.isEmpty()) {
            md.append("\nAnd the [options of every command](#options-of-every-command) it takes: ")
                    .append(String.join(", ", sharedHere))
                    .append(".\n");
        }
        List<String> subcommands = new ArrayList<>();
        command.getSubcommands().forEach((name, sub) -> {
            if (name.equals(sub.getCommandName())) {
                subcommands.add("- [`" + name + "`](#" + anchor(sub.getCommandSpec()) + "): "
                        + text(ManPages.first(
                                sub.getCommandSpec().usageMessage().description())));
            }
        });
        if (!subcommands.isEmpty()) {
            md.append('\n').append(String.join("\n", subcommands)).append('\n');
        }
        return md.toString();
    }

    /** The heading's id: the command's words joined by dashes, as its man page is named. */
    static String anchor(CommandSpec spec) {
        return ManPages.pageName(spec);
    }

    /** Help text as Markdown text: picocli's markup gone, and the characters Markdown reads escaped. */
    private static String text(String help) {
        return ManPages.help(help).replace("<", "&lt;").replace(">", "&gt;");
    }

    /** A table cell holds no pipe and no line break. */
    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
