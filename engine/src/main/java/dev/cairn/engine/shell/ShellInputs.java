package dev.cairn.engine.shell;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.cairn.engine.process.Port;
import dev.cairn.engine.scheduler.JobTemplate;
import dev.cairn.engine.scheduler.Scheduler;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.BoolData;
import dev.cairn.storage.graph.DictData;
import dev.cairn.storage.graph.FolderData;
import dev.cairn.storage.graph.ListData;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.SinglefileData;
import dev.cairn.storage.graph.StrData;

/**
 * A shell job's inputs read and checked together: what its spec's validator refuses at launch
 * (so nothing is stored for a job that cannot run), and what its {@code prepare} and parser read.
 *
 * @param arguments      the command's arguments, placeholders not yet filled
 * @param nodes          the {@code nodes} namespace by name
 * @param fileNames      where each file or folder node is written, by node name (folders: null for the work
 *                       directory itself)
 * @param outputs        the output files and globs asked for
 * @param parsers        the parsers, in the order given
 * @param stdin          the file the command reads as standard input, or null
 * @param redirectStderr standard error goes into the stdout file
 */
record ShellInputs(
        List<String> arguments,
        Map<String, Node> nodes,
        Map<String, String> fileNames,
        List<String> outputs,
        List<OutputParser> parsers,
        String stdin,
        boolean redirectStderr) {

    static final String STDOUT = "stdout";
    static final String STDERR = "stderr";
    static final String STATUS = "status";

    /** Names the job writes itself; no input file or output may take them. */
    static final Set<String> RESERVED_FILES = Set.of(
            STDOUT,
            STDERR,
            STATUS,
            Scheduler.SUBMIT_SCRIPT,
            JobTemplate.DEFAULT_STDOUT,
            JobTemplate.DEFAULT_STDERR,
            Scheduler.STARTED_FILE,
            Scheduler.STARTED_FILE + ".tmp",
            Scheduler.SUBMITTED_FILE);

    /** Outputs every shell job may have besides files and parsers' outputs. */
    static final Set<String> RESERVED_LABELS = Set.of(STDOUT, STDERR, "retrieved", "remote_folder");

    /**
     * The inputs of a launch, by port path, read and checked.
     *
     * @throws InvalidInputException naming every problem found, one after the other
     */
    static ShellInputs read(Map<String, Node> byPath) {
        List<String> problems = new ArrayList<>();
        Map<String, Node> nodes = new LinkedHashMap<>();
        byPath.forEach((path, node) -> {
            if (path.startsWith(ShellJob.NODES + ".")) {
                nodes.put(path.substring(ShellJob.NODES.length() + 1), node);
            }
        });
        List<String> arguments = strings(byPath.get(ShellJob.ARGUMENTS.path()), "arguments", problems);
        checkArguments(arguments, nodes, problems);
        checkNodes(nodes, problems);
        Map<String, String> fileNames = fileNames(byPath.get(ShellJob.FILENAMES.path()), nodes, problems);
        List<String> outputs = strings(byPath.get(ShellJob.OUTPUTS.path()), "outputs", problems);
        for (String output : outputs) {
            try {
                String path = relativePath("output '" + output + "'", output);
                if (RESERVED_FILES.contains(path)) {
                    problems.add("output '" + output + "' is a file the job writes itself (" + STDOUT + ", " + STDERR
                            + " and " + STATUS + " are outputs already)");
                }
            } catch (InvalidInputException e) {
                problems.add(e.getMessage());
            }
        }
        List<OutputParser> parsers = parsers(byPath.get(ShellJob.PARSERS.path()), problems);
        String stdin = byPath.get(ShellJob.STDIN.path()) instanceof StrData s ? s.value() : null;
        if (stdin != null) {
            try {
                relativePath("stdin", stdin);
            } catch (InvalidInputException e) {
                problems.add(e.getMessage());
            }
        }
        boolean redirect = byPath.get(ShellJob.REDIRECT_STDERR.path()) instanceof BoolData b && b.value();
        if (!problems.isEmpty()) {
            throw new InvalidInputException(String.join("; ", problems));
        }
        return new ShellInputs(arguments, nodes, fileNames, outputs, parsers, stdin, redirect);
    }

    /** Every placeholder names an input of {@code nodes}; no argument redirects, which the job does itself. */
    private static void checkArguments(List<String> arguments, Map<String, Node> nodes, List<String> problems) {
        for (String argument : arguments) {
            if (argument.equals("<") || argument.equals(">")) {
                problems.add("argument '" + argument + "': the command's streams are set by the job (stdout and"
                        + " stderr are captured; give the input 'stdin' for a file to read from)");
                continue;
            }
            for (String name : new LinkedHashSet<>(Placeholders.names(argument))) {
                if (!nodes.containsKey(name)) {
                    problems.add("argument '" + argument + "' has the placeholder {" + name + "}, but there is no input"
                            + " nodes." + name + (nodes.isEmpty() ? "" : " (nodes has " + nodes.keySet() + ")"));
                }
            }
        }
    }

    /** Each node is a file or folder, or a value with a text form. */
    private static void checkNodes(Map<String, Node> nodes, List<String> problems) {
        nodes.forEach((name, node) -> {
            if (!(node instanceof SinglefileData || node instanceof FolderData || PythonText.hasText(node))) {
                problems.add("nodes." + name + " is a " + node.getClass().getSimpleName() + ", which is neither a file"
                        + " (SinglefileData, FolderData) to write into the work directory nor a value (Int, Float, Str,"
                        + " Bool) to put on the command line");
            }
        });
    }

    /** Where each file and folder node goes: {@code filenames}, else a file's own name, else the node's name. */
    private static Map<String, String> fileNames(Node given, Map<String, Node> nodes, List<String> problems) {
        Map<String, Object> explicit = new LinkedHashMap<>();
        if (given instanceof DictData dict) {
            explicit.putAll(dict.asMap());
        }
        explicit.forEach((name, value) -> {
            Node node = nodes.get(name);
            if (node == null) {
                problems.add("filenames." + name + ": there is no input nodes." + name + " to name");
            } else if (!(node instanceof SinglefileData || node instanceof FolderData)) {
                problems.add(
                        "filenames." + name + ": nodes." + name + " is a "
                                + node.getClass().getSimpleName()
                                + ", not a file or folder, so it is not written to a file (its value goes on the command line)");
            }
        });
        Map<String, String> names = new LinkedHashMap<>();
        Map<String, String> owners = new LinkedHashMap<>();
        nodes.forEach((name, node) -> {
            String fileName;
            if (node instanceof SinglefileData file) {
                Object chosen = explicit.containsKey(name) ? explicit.get(name) : file.filename();
                fileName = chosen == null ? name : chosen.toString();
            } else if (node instanceof FolderData) {
                fileName = explicit.containsKey(name) ? String.valueOf(explicit.get(name)) : null;
            } else {
                return;
            }
            if (fileName != null) {
                try {
                    fileName = relativePath("the file of nodes." + name, fileName);
                } catch (InvalidInputException e) {
                    problems.add(e.getMessage());
                    return;
                }
                if (RESERVED_FILES.contains(fileName)) {
                    problems.add("nodes." + name + " would be written to '" + fileName + "', a file the job writes"
                            + " itself: give it another name in filenames");
                }
                String other = owners.putIfAbsent(fileName, name);
                if (other != null) {
                    problems.add("nodes." + other + " and nodes." + name + " would both be written to '" + fileName
                            + "': give one of them another name in filenames");
                }
            }
            names.put(name, fileName);
        });
        return names;
    }

    private static List<OutputParser> parsers(Node given, List<String> problems) {
        List<OutputParser> parsers = new ArrayList<>();
        if (!(given instanceof DictData dict)) {
            return parsers;
        }
        dict.asMap().forEach((name, spec) -> {
            try {
                Port.checkName(name);
                if (RESERVED_LABELS.contains(name)) {
                    throw new InvalidInputException("is an output every shell job has");
                }
                parsers.add(OutputParser.of(name, spec));
            } catch (InvalidInputException e) {
                String message = e.getMessage();
                problems.add(message.startsWith("parser '") ? message : "parser '" + name + "': " + message);
            }
        });
        return parsers;
    }

    private static List<String> strings(Node given, String port, List<String> problems) {
        if (!(given instanceof ListData list)) {
            return List.of();
        }
        List<String> strings = new ArrayList<>();
        for (Object item : list.values()) {
            if (item instanceof String s) {
                strings.add(s);
            } else {
                problems.add(port + ": every item is a string, not " + item);
            }
        }
        return strings;
    }

    /**
     * {@code value} as a path relative to the work directory, without '.' or '..' parts.
     *
     * @throws InvalidInputException naming {@code what} when it is none
     */
    static String relativePath(String what, Object value) {
        if (!(value instanceof String path) || path.isBlank()) {
            throw new InvalidInputException(what + " must be a file name, not " + value);
        }
        String trimmed = path.replaceAll("/+$", "");
        for (String part : trimmed.split("/", -1)) {
            if (part.isEmpty() || part.equals(".") || part.equals("..")) {
                throw new InvalidInputException(what + " '" + path
                        + "' must be a path inside the work directory (no leading '/', '.' or '..')");
            }
        }
        return trimmed;
    }
}
