package dev.cairn.engine.shell;

import java.util.Map;

import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.ExitCode;
import dev.cairn.engine.process.InputPort;
import dev.cairn.engine.process.OutputPort;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.BoolData;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.DictData;
import dev.cairn.storage.graph.ListData;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.SinglefileData;
import dev.cairn.storage.graph.StrData;

/**
 * {@code core.shell}: any program run as a calculation job, with full provenance and no plugin, as
 * aiida-shell's {@code ShellJob} runs it. Its code is the program on a computer; its arguments may
 * hold placeholders ({@code {name}}) for the inputs of the namespace {@code nodes}: a file or
 * folder node is written into the work directory and the placeholder becomes its name, a number,
 * string or boolean is put in as text. The command's standard output and error and its exit
 * status are captured; the files named in {@code outputs} (names or globs) come back as
 * {@code SinglefileData} or {@code FolderData} outputs labelled after their names; the parsers of
 * {@code parsers} read files into a {@code Dict} or numbers. A job whose inputs do not fit (a
 * placeholder without its input, a value where a file is needed, two files of one name) is refused
 * at launch and nothing is stored. Like any calculation job it runs on any computer and is taken
 * from the cache when an identical one finished.
 */
public final class ShellJob {

    /** The entry point: {@code core.shell}. */
    public static final String ENTRY_POINT = "core.shell";

    /** The namespace of the nodes the arguments' placeholders name. */
    public static final String NODES = "nodes";

    /** The command's arguments (the program is the code), with placeholders such as {@code {file}}. */
    public static final InputPort<ListData> ARGUMENTS = InputPort.optional("arguments", ListData.class)
            .withHelp("the command's arguments, strings, each one word; {name} stands for the input nodes.name");

    /** Where file and folder nodes are written, by node name. */
    public static final InputPort<DictData> FILENAMES = InputPort.optional("filenames", DictData.class)
            .withHelp("the file name (a relative path) each file or folder node of nodes is written to, by node name;"
                    + " by default a file keeps its own name and a folder's contents go into the work directory");

    /** The output files: names or globs. */
    public static final InputPort<ListData> OUTPUTS = InputPort.optional("outputs", ListData.class)
            .withHelp("files or folders the command writes, by relative name or glob, each made an output"
                    + " labelled after its name");

    /** The parsers that need no Java: output name → {@code {"json": file}} or {@code {"regex": …}}. */
    public static final InputPort<DictData> PARSERS = InputPort.optional("parsers", DictData.class)
            .withHelp("outputs read from files: {\"NAME\": {\"json\": \"file.json\"}} for a Dict (or List, number…),"
                    + " {\"NAME\": {\"regex\": \"E = (\\\\S+)\", \"file\": \"stdout\", \"match\": \"first|last|all\"}}"
                    + " for a number (or a List of all)");

    /** A file in the work directory that the command reads as its standard input. */
    public static final InputPort<StrData> STDIN = InputPort.optional("stdin", StrData.class)
            .withHelp(
                    "a file in the work directory (one of nodes, by its file name) the command reads as standard input");

    /** Standard error into the {@code stdout} file. */
    public static final InputPort<BoolData> REDIRECT_STDERR = InputPort.optional("redirect_stderr", BoolData.class)
            .withHelp("true: standard error goes into stdout too, and a command writing to it does not fail");

    /** What the command printed. */
    public static final OutputPort<SinglefileData> STDOUT =
            OutputPort.optional("stdout", SinglefileData.class).withHelp("the command's standard output");

    /** What the command printed to standard error, when it printed anything. */
    public static final OutputPort<SinglefileData> STDERR = OutputPort.optional("stderr", SinglefileData.class)
            .withHelp("the command's standard error, when not empty");

    /** The command ran, but its exit status was not brought back. */
    public static final ExitCode STATUS_MISSING =
            new ExitCode(300, "ERROR_OUTPUT_STATUS_MISSING", "the exit status file was not retrieved", true);

    /** The exit status file holds no integer. */
    public static final ExitCode STATUS_INVALID =
            new ExitCode(301, "ERROR_OUTPUT_STATUS_INVALID", "the exit status file does not hold an integer", true);
    /** The stdout file was not brought back. */
    public static final ExitCode STDOUT_MISSING =
            new ExitCode(302, "ERROR_OUTPUT_STDOUT_MISSING", "the stdout file was not retrieved", true);
    /** An output file asked for by name was not written. */
    public static final ExitCode OUTPUTS_MISSING = new ExitCode(
            303, "ERROR_OUTPUT_FILEPATHS_MISSING", "output files asked for were not written: {missing}", true);
    /** A parser could not make its output (a file missing, not JSON, no match). */
    public static final ExitCode PARSER_FAILED =
            new ExitCode(310, "ERROR_PARSER_FAILED", "a parser could not read its output: {message}", true);
    /** The command exited with a status other than 0. */
    public static final ExitCode COMMAND_FAILED =
            ExitCode.of(400, "ERROR_COMMAND_FAILED", "the command exited with status {status}: {stderr}");
    /** The command exited with 0 but wrote to standard error (unless {@link #REDIRECT_STDERR}). */
    public static final ExitCode STDERR_NOT_EMPTY =
            ExitCode.of(410, "ERROR_STDERR_NOT_EMPTY", "the command exited with status 0 but wrote to standard error");

    /** The process type. */
    public static final CalcJobDefinition DEFINITION = new CalcJobDefinition(
            ENTRY_POINT,
            CalcJobDefinition.specBuilder()
                    .input(ARGUMENTS)
                    .inputNamespace(
                            NODES,
                            ns -> ns.asDynamic(Data.class)
                                    .withHelp(
                                            "the inputs the placeholders name: files and folders (SinglefileData, FolderData)"
                                                    + " written into the work directory, values (Int, Float, Str, Bool) put in as text"))
                    .input(FILENAMES)
                    .input(OUTPUTS)
                    .input(PARSERS)
                    .input(STDIN)
                    .input(REDIRECT_STDERR)
                    .output(STDOUT)
                    .output(STDERR)
                    .dynamicOutputs(Data.class)
                    .exitCode(STATUS_MISSING)
                    .exitCode(STATUS_INVALID)
                    .exitCode(STDOUT_MISSING)
                    .exitCode(OUTPUTS_MISSING)
                    .exitCode(PARSER_FAILED)
                    .exitCode(COMMAND_FAILED)
                    .exitCode(STDERR_NOT_EMPTY)
                    .validator(ShellJob::check)
                    .build(),
            new ShellPreparer(),
            new ShellParser());

    private ShellJob() {}

    /** The spec's check of all inputs together: null when they fit, else every problem. */
    private static String check(Map<String, Node> inputs) {
        try {
            ShellInputs.read(inputs);
            return null;
        } catch (InvalidInputException e) {
            return e.getMessage();
        }
    }
}
