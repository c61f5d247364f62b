package dev.cairn.engine.shell;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.ExitCode;
import dev.cairn.engine.process.Outputs;
import dev.cairn.engine.process.ProcessInputs;
import dev.cairn.storage.graph.FolderData;
import dev.cairn.storage.graph.SinglefileData;

/**
 * A shell job's last stage, as aiida-shell's {@code ShellParser}: {@code stdout} and (when not
 * empty) {@code stderr} become outputs; each output file asked for becomes a
 * {@code SinglefileData}, each folder a {@code FolderData}, under a label derived from its name
 * ({@link LinkLabels}); each parser makes its output; and the exit code says what went wrong
 * first, in aiida-shell's order of checks: a missing stdout or status, a command that failed
 * (its status and standard error), a parser that failed, a missing output file, and a command that
 * exited 0 yet wrote to standard error. Outputs found are kept whatever the exit code.
 */
final class ShellParser implements CalcJobDefinition.Parser {

    @Override
    public Outputs parse(ProcessInputs given, Path retrieved) throws IOException {
        ShellInputs inputs = ShellInputs.read(given.asMap());
        Outputs outputs = Outputs.create();
        Set<String> taken = new HashSet<>(ShellInputs.RESERVED_LABELS);
        inputs.parsers().forEach(p -> taken.add(p.name()));

        List<String> missing = new ArrayList<>();
        for (String output : inputs.outputs()) {
            List<Path> matches = matches(retrieved, output);
            if (matches.isEmpty() && !isGlob(output)) {
                missing.add(output);
            }
            for (Path match : matches) {
                String label = LinkLabels.unique(match.getFileName().toString(), taken);
                taken.add(label);
                outputs.put(label, Files.isDirectory(match) ? FolderData.of(match) : new SinglefileData(match));
            }
        }
        String parserFailure = null;
        for (OutputParser parser : inputs.parsers()) {
            try {
                outputs.put(parser.name(), parser.parse(retrieved));
            } catch (ParseFailure e) {
                parserFailure =
                        parserFailure == null ? "parser '" + parser.name() + "': " + e.getMessage() : parserFailure;
            }
        }
        String stderr = "";
        Path stderrFile = retrieved.resolve(ShellInputs.STDERR);
        if (Files.isRegularFile(stderrFile) && Files.size(stderrFile) > 0) {
            outputs.put(ShellInputs.STDERR, new SinglefileData(stderrFile));
            stderr = tail(stderrFile);
        }
        Path stdoutFile = retrieved.resolve(ShellInputs.STDOUT);
        if (!Files.isRegularFile(stdoutFile)) {
            return failed(outputs, ShellJob.STDOUT_MISSING);
        }
        outputs.put(ShellInputs.STDOUT, new SinglefileData(stdoutFile));
        Path statusFile = retrieved.resolve(ShellInputs.STATUS);
        if (!Files.isRegularFile(statusFile)) {
            return failed(outputs, ShellJob.STATUS_MISSING);
        }
        int status;
        try {
            status = Integer.parseInt(text(statusFile).strip());
        } catch (NumberFormatException e) {
            return failed(outputs, ShellJob.STATUS_INVALID);
        }
        if (status != 0) {
            return failed(outputs, ShellJob.COMMAND_FAILED.format("status", status, "stderr", stderr));
        }
        if (parserFailure != null) {
            return failed(outputs, ShellJob.PARSER_FAILED.format("message", parserFailure));
        }
        if (!missing.isEmpty()) {
            return failed(outputs, ShellJob.OUTPUTS_MISSING.format("missing", String.join(", ", missing)));
        }
        if (!stderr.isEmpty() && !inputs.redirectStderr()) {
            return failed(outputs, ShellJob.STDERR_NOT_EMPTY);
        }
        return outputs;
    }

    /** What a name or glob names among the retrieved files, in name order. */
    private static List<Path> matches(Path retrieved, String output) throws IOException {
        if (!isGlob(output)) {
            Path path = retrieved.resolve(output);
            return Files.exists(path) ? List.of(path) : List.of();
        }
        var matcher = retrieved.getFileSystem().getPathMatcher("glob:" + output);
        try (var walk = Files.walk(retrieved)) {
            // the job's own files are outputs of their own: a glob such as '*' does not take them again
            return walk.filter(p -> !p.equals(retrieved) && matcher.matches(retrieved.relativize(p)))
                    .filter(p -> !ShellInputs.RESERVED_FILES.contains(
                            retrieved.relativize(p).toString()))
                    .sorted()
                    .toList();
        }
    }

    private static boolean isGlob(String path) {
        return path.indexOf('*') >= 0 || path.indexOf('?') >= 0 || path.indexOf('[') >= 0;
    }

    /** The end of the standard error for the exit message: enough to see the error, not a whole log. */
    private static String tail(Path file) throws IOException {
        String text = text(file).strip();
        return text.length() <= 2000 ? text : "…" + text.substring(text.length() - 2000);
    }

    /** A file's text, undecodable bytes replaced: standard error may hold anything. */
    private static String text(Path file) throws IOException {
        return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    }

    private static Outputs failed(Outputs found, ExitCode code) {
        Outputs failed = Outputs.failed(code);
        found.asMap().forEach(failed::put);
        return failed;
    }
}
