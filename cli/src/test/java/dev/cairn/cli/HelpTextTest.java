package dev.cairn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.IllegalFormatException;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * picocli reads every line of help as a format string: a lone {@code %} (a {@code like} pattern in an
 * example) makes it print a warning with the help and leave the line's {@code %n} unreplaced.
 */
class HelpTextTest {

    @Test
    void everyLineOfEveryCommandsHelpIsAFormatPicocliCanRender() {
        List<String> broken = new ArrayList<>();
        collect(CairnCommand.commandLine(), broken);
        assertEquals(List.of(), broken, "help text with a '%' that is not %% or %n");
    }

    private static void collect(CommandLine command, List<String> broken) {
        CommandSpec spec = command.getCommandSpec();
        UsageMessageSpec usage = spec.usageMessage();
        Stream<String> texts = Stream.of(usage.header(), usage.description(), usage.footer(), usage.customSynopsis())
                .flatMap(Stream::of);
        Stream<String> args = spec.args().stream().map(ArgSpec::description).flatMap(Stream::of);
        Stream.concat(texts, args).forEach(text -> {
            try {
                String.format(text);
            } catch (IllegalFormatException e) {
                broken.add(spec.qualifiedName() + ": " + text + " (" + e.getMessage() + ")");
            }
        });
        command.getSubcommands().values().forEach(sub -> collect(sub, broken));
    }
}
