package dev.cairn.api.codes;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.web.multipart.MultipartFile;

import dev.cairn.api.computers.ComputerRefs;
import dev.cairn.api.web.Cursor;
import dev.cairn.api.web.NodeRefs;
import dev.cairn.api.web.Page;
import dev.cairn.engine.plugin.PluginRegistry;
import dev.cairn.engine.plugin.UnknownProcessTypeException;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.Code;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.PortableCode;
import dev.cairn.storage.graph.codes.CodeStore;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.computers.ComputerStore;

/**
 * The codes calculation jobs run, for every surface of the server: installed codes (an executable on a
 * computer) and portable ones (uploaded files), stored as the user who sends them, found by uuid,
 * {@code label@computer} or a label only one code has, listed a page at a time, and deleted while no
 * process used them.
 */
@Service
public class CodeService {

    private static final Logger LOG = LoggerFactory.getLogger(CodeService.class);
    private static final Pattern UUID_PREFIX = Pattern.compile("[0-9a-fA-F-]{4,36}");
    private static final String ORDER = "id";

    private final GraphStore graph;
    private final CodeStore codes;
    private final ComputerStore computerStore;
    private final PluginRegistry plugins;
    private final NodeRefs nodes;
    private final ComputerRefs computers;

    CodeService(Storage storage, PluginRegistry plugins, NodeRefs nodes, ComputerRefs computers) {
        this.graph = storage.graph();
        this.codes = storage.codes();
        this.computerStore = storage.computers();
        this.plugins = plugins;
        this.nodes = nodes;
        this.computers = computers;
    }

    /** Stores an installed code as the user {@code userId}; its label must be new on its computer. */
    public CodeView createInstalled(NewInstalledCode body, long userId) {
        String label = label(body.label());
        if (body.executable() == null) {
            throw new InvalidInputException("field 'executable' is required: the executable's absolute path");
        }
        Computer computer = computers.inBody("computer", body.computer());
        if (codes.labelTaken(label, computer.id())) {
            throw new ConflictException("computer '" + computer.label() + "' has a code labelled '" + label
                    + "' already (" + label + "@" + computer.label() + ")");
        }
        InstalledCode code = new InstalledCode(computer.id(), body.executable());
        describe(
                code,
                label,
                body.description(),
                body.defaultCalcJobPlugin(),
                body.prependText(),
                body.appendText(),
                body.withMpi());
        return view(graph.forUser(userId).store(code));
    }

    /**
     * Stores a portable code of the uploaded {@code files} (each part's file name its path in the code) as
     * the user {@code userId}; its label must be new among portable codes.
     */
    public CodeView createPortable(
            List<MultipartFile> files,
            String label,
            String executable,
            String description,
            String defaultCalcJobPlugin,
            String prependText,
            String appendText,
            Boolean withMpi,
            long userId)
            throws IOException {
        String name = label(label);
        if (codes.labelTaken(name, null)) {
            throw new ConflictException("a portable code is labelled '" + name + "' already");
        }
        Path folder = Files.createTempDirectory("cairn-code-");
        try {
            writeFiles(files, folder);
            PortableCode code = new PortableCode(folder, executable);
            describe(code, name, description, defaultCalcJobPlugin, prependText, appendText, withMpi);
            return view(graph.forUser(userId).store(code));
        } finally {
            deleteTree(folder);
        }
    }

    /** A page of the codes (of the computer named, or all), by id, after {@code cursor}. */
    public Page<CodeView> list(String computer, String cursor, int limit) {
        long after = cursor == null
                ? 0
                : ((Number) Cursor.decode(cursor, ORDER).after().getFirst()).longValue();
        Long computerId =
                computer == null ? null : computers.inBody("computer", computer).id();
        List<Code> page = codes.page(computerId, after, limit + 1).stream()
                .map(this::load)
                .toList();
        boolean more = page.size() > limit;
        List<Code> items = more ? page.subList(0, limit) : page;
        String next = more ? new Cursor(ORDER, List.of(items.getLast().id())).encode() : null;
        return new Page<>(items.stream().map(this::view).toList(), next, null);
    }

    /** The code {@code ref} names. */
    public CodeView show(String ref) {
        return view(find(ref));
    }

    /** Deletes the code {@code ref} names, unless a process used it (it is part of their provenance). */
    public void delete(String ref) {
        Code code = find(ref);
        codes.deleteUnused(code, fullLabel(code));
    }

    /** The code a client names: by uuid or a prefix of it, {@code label@computer}, or a label only one code has. */
    public Code find(String ref) {
        int at = ref.lastIndexOf('@');
        if (at > 0) {
            String label = ref.substring(0, at);
            Computer computer = computers.inPath(ref.substring(at + 1));
            List<Long> ids = codes.withLabel(label, computer.id());
            if (ids.isEmpty()) {
                throw new NotFoundException("computer '" + computer.label() + "' has no code labelled '" + label + "'");
            }
            return load(ids.getFirst());
        }
        if (UUID_PREFIX.matcher(ref).matches()) {
            try {
                Node node = nodes.node(ref.toLowerCase(Locale.ROOT));
                if (node instanceof Code code) {
                    return code;
                }
                throw new NotFoundException("node " + node.uuid() + " is a " + node.nodeType() + ", not a code");
            } catch (NotFoundException e) {
                // a label may look like the start of a uuid ("cafe"): try it as one
                if (codes.withLabel(ref).isEmpty()) {
                    throw e;
                }
            }
        }
        List<Long> ids = codes.withLabel(ref);
        if (ids.isEmpty()) {
            throw new NotFoundException("no code is labelled '" + ref + "' (nor has a uuid beginning so); name a code"
                    + " by uuid, label@computer or label");
        }
        if (ids.size() > 1) {
            throw new ConflictException("more than one code is labelled '" + ref + "' ("
                    + String.join(
                            ", ", ids.stream().map(id -> fullLabel(load(id))).toList())
                    + "): name it as label@computer or by uuid");
        }
        return load(ids.getFirst());
    }

    /** {@code label@computer} for an installed code, the label for a portable one. */
    private String fullLabel(Code code) {
        return code instanceof InstalledCode ? code.label() + "@" + computerLabel(code) : code.label();
    }

    /** The label of an installed code's computer; null for a portable code. */
    private String computerLabel(Code code) {
        return code.computerId() == null
                ? null
                : computerStore.get(code.computerId()).label();
    }

    private CodeView view(Code code) {
        return CodeView.of(code, computerLabel(code));
    }

    private Code load(long id) {
        return (Code) graph.load(id);
    }

    private static String label(String label) {
        if (label == null || label.isBlank()) {
            throw new InvalidInputException("field 'label' is required: the code's name");
        }
        if (label.contains("@")) {
            throw new InvalidInputException(
                    "a code's label may not contain '@' (codes are named label@computer): '" + label + "'");
        }
        return label.strip();
    }

    private void describe(
            Code code,
            String label,
            String description,
            String calcJob,
            String prependText,
            String appendText,
            Boolean withMpi) {
        code.setLabel(label);
        code.setDescription(description == null ? "" : description);
        if (calcJob != null) {
            code.defaultCalcJobPlugin(requireCalcJob(calcJob));
        }
        code.prependText(prependText == null ? "" : prependText);
        code.appendText(appendText == null ? "" : appendText);
        code.withMpi(withMpi);
    }

    private String requireCalcJob(String entryPoint) {
        List<String> calcJobs = plugins.all().stream()
                .filter(CalcJobDefinition.class::isInstance)
                .map(ProcessDefinition::entryPoint)
                .sorted()
                .toList();
        try {
            if (plugins.get(entryPoint) instanceof CalcJobDefinition) {
                return entryPoint;
            }
        } catch (UnknownProcessTypeException e) {
            // named below, with the calculation jobs there are
        }
        throw new InvalidInputException("field 'defaultCalcJobPlugin': '" + entryPoint
                + "' is not a calculation job; the calculation jobs are " + calcJobs);
    }

    /** The uploaded files under {@code folder}, each at the relative path its part names. */
    private static void writeFiles(List<MultipartFile> files, Path folder) throws IOException {
        if (files == null || files.isEmpty()) {
            throw new InvalidInputException("a portable code needs its files: one or more parts 'files'");
        }
        Set<String> seen = new HashSet<>();
        for (MultipartFile file : files) {
            String path = file.getOriginalFilename();
            Path target = folder.resolve(path == null ? "" : path).normalize();
            if (path == null
                    || path.isBlank()
                    || path.startsWith("/")
                    || !target.startsWith(folder)
                    || target.equals(folder)
                    || path.contains("\\")) {
                throw new InvalidInputException("part 'files': '" + path
                        + "' is not a relative path inside the code (a file name or a path like bin/run.sh)");
            }
            if (!seen.add(folder.relativize(target).toString())) {
                throw new InvalidInputException("part 'files': '" + path + "' is uploaded twice");
            }
            Files.createDirectories(target.getParent());
            try (InputStream in = file.getInputStream()) {
                Files.copy(in, target);
            }
        }
    }

    /** The files are in the object store by now (or the code was refused): the copies go. */
    private static void deleteTree(Path folder) {
        try (Stream<Path> paths = Files.walk(folder)) {
            List<Path> all = new ArrayList<>(paths.toList());
            all.sort(Comparator.reverseOrder());
            for (Path p : all) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // best effort, never masking the answer: a folder left in the temporary directory harms nothing
            LOG.warn("could not remove the upload folder {}: {}", folder, e.toString());
        }
    }
}
