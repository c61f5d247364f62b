package dev.cairn.engine.shell;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.cairn.engine.process.CalcInfo;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.JobFolder;
import dev.cairn.engine.process.ProcessInputs;
import dev.cairn.storage.graph.FolderData;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.SinglefileData;

/**
 * A shell job's first stage, as aiida-shell's {@code prepare_for_submission}: the file and folder
 * nodes are copied into the work directory (under {@code filenames}, else a file's own name, a
 * folder's contents into the work directory itself), the placeholders of the arguments filled
 * (a file's name, a value's text), the command's standard output and error captured to
 * {@code stdout} and {@code stderr} and its exit status written to {@code status}, and those three
 * retrieved with the outputs asked for and the parsers' files.
 */
final class ShellPreparer implements CalcJobDefinition.Preparer {

    @Override
    public CalcInfo prepare(ProcessInputs given, JobFolder folder) {
        ShellInputs inputs = ShellInputs.read(given.asMap());
        for (Map.Entry<String, Node> e : inputs.nodes().entrySet()) {
            String target = inputs.fileNames().get(e.getKey());
            switch (e.getValue()) {
                case SinglefileData file -> folder.copyFile(file, file.filename(), target);
                case FolderData tree -> folder.copyTree(tree, target == null ? "" : target);
                default -> {
                    // a value: it goes on the command line only
                }
            }
        }
        List<String> arguments = new ArrayList<>();
        for (String argument : inputs.arguments()) {
            arguments.add(Placeholders.fill(argument, name -> text(inputs, name)));
        }
        Set<String> retrieve = new LinkedHashSet<>(List.of(ShellInputs.STDOUT, ShellInputs.STDERR, ShellInputs.STATUS));
        retrieve.addAll(inputs.outputs());
        inputs.parsers().forEach(p -> retrieve.add(p.file()));
        return new CalcInfo(
                arguments,
                inputs.stdin(),
                ShellInputs.STDOUT,
                inputs.redirectStderr() ? ShellInputs.STDOUT : ShellInputs.STDERR,
                List.copyOf(retrieve),
                "echo $? > " + ShellInputs.STATUS);
    }

    /** What a placeholder stands for: a file's name in the work directory, a value's text. */
    private static String text(ShellInputs inputs, String name) {
        Node node = inputs.nodes().get(name);
        if (node instanceof SinglefileData || node instanceof FolderData) {
            String fileName = inputs.fileNames().get(name);
            // a folder copied into the work directory itself is named by its input's name, as in aiida-shell
            return fileName == null ? name : fileName;
        }
        return PythonText.of(node);
    }
}
