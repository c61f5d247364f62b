package dev.cairn.api.processes;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Service;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.api.codes.CodeService;
import dev.cairn.api.computers.ComputerRefs;
import dev.cairn.api.security.CairnPrincipal;
import dev.cairn.engine.Engine;
import dev.cairn.engine.launch.JsonInputs;
import dev.cairn.engine.launch.Launcher;
import dev.cairn.engine.launch.ReferenceResolver;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.shell.CommandLine;
import dev.cairn.engine.shell.ShellJob;
import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.Code;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.computers.Computer;

/**
 * Launching shell jobs from a command line, as aiida-shell's {@code launch_shell_job} does: the
 * command is split into the program and its arguments; the program's code on the computer is the
 * one labelled after it ({@code wc@localhost}), or, at its first run there, a new one at the path
 * the computer finds for it, stored with the job; the rest of the request becomes the job's inputs.
 * Everything is checked before anything is stored: a program the computer lacks, a placeholder
 * without its input, a value where a file is needed are refused and leave nothing behind.
 */
@Service
class ShellJobs {

    static final String DEFAULT_COMPUTER = "localhost";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Engine engine;
    private final CodeService codes;
    private final ComputerRefs computers;
    private final ReferenceResolver references;
    private final JsonInputs json;

    ShellJobs(Engine engine, Storage storage, CodeService codes, ComputerRefs computers) {
        this.engine = engine;
        this.codes = codes;
        this.computers = computers;
        this.references = ReferenceResolver.of(storage.graph(), storage.computers());
        this.json = new JsonInputs(references);
    }

    /** Launches one shell job for {@code user}. */
    ProcessSummary submit(CairnPrincipal user, ShellJobRequest request) {
        Launcher launcher = engine.launcher().forUser(user.userId());
        Launcher.Launch launch = decode(request, new HashMap<>());
        return ProcessSummary.launched(launcher.submit(launch), user.email(), launch.caller());
    }

    /**
     * Launches many shell jobs for {@code userId}, all or none: every job is decoded and checked
     * first, and each problem named by the job's index ({@code jobs[3]: …}). A program's new code
     * is made once for all the jobs that run it.
     */
    List<ProcessSummary> submitAll(CairnPrincipal user, List<ShellJobRequest> requests) {
        Launcher launcher = engine.launcher().forUser(user.userId());
        Map<String, Code> programs = new HashMap<>();
        List<Launcher.Launch> launches = Batches.decodeAll(requests, "jobs", r -> decode(r, programs), launcher);
        return LaunchService.summaries(launches, launcher.submitAll(launches), user.email());
    }

    /** The launch a request describes; {@code programs} keeps the codes found or made so far, by program@computer. */
    private Launcher.Launch decode(ShellJobRequest request, Map<String, Code> programs) {
        List<String> words = CommandLine.split(request.command());
        Computer computer =
                computers.inBody("computer", request.computer() == null ? DEFAULT_COMPUTER : request.computer());
        if (request.metadata() != null && request.metadata().has("computer")) {
            throw new InvalidInputException(
                    "metadata 'computer': a shell job runs on the computer of its field 'computer'");
        }
        Inputs inputs = json.decode(ShellJob.DEFINITION, inputs(request, words), request.metadata());
        String program = words.getFirst();
        Code code = programs.computeIfAbsent(program + "@" + computer.label(), key -> code(program, computer));
        inputs.put(CalcJobDefinition.CODE, code);
        return new Launcher.Launch(ShellJob.DEFINITION, inputs, Callers.of(references, request.caller()));
    }

    /** The job's inputs in the JSON form of {@code core.shell}, without its code. */
    private static ObjectNode inputs(ShellJobRequest request, List<String> words) {
        ObjectNode inputs = JSON.createObjectNode();
        var arguments = inputs.putArray("arguments");
        words.subList(1, words.size()).forEach(arguments::add);
        if (request.nodes() != null) {
            inputs.set(ShellJob.NODES, request.nodes());
        }
        if (request.filenames() != null) {
            inputs.set("filenames", JSON.valueToTree(request.filenames()));
        }
        if (request.outputs() != null) {
            inputs.set("outputs", JSON.valueToTree(request.outputs()));
        }
        if (request.parsers() != null) {
            inputs.set("parsers", request.parsers());
        }
        if (request.stdin() != null) {
            inputs.put("stdin", request.stdin());
        }
        if (request.redirectStderr() != null) {
            inputs.put("redirect_stderr", request.redirectStderr());
        }
        return inputs;
    }

    /**
     * The code of {@code program} on {@code computer}: the one labelled so there, else a new one
     * (unstored: it is stored with the job) at the path the computer finds for the program.
     */
    private Code code(String program, Computer computer) {
        if (program.contains("@")) {
            throw new InvalidInputException("the program '" + program + "' has an '@', which code labels may not have");
        }
        try {
            return codes.find(program + "@" + computer.label());
        } catch (NotFoundException e) {
            InstalledCode code = new InstalledCode(computer.id(), engine.locateExecutable(computer, program));
            code.setLabel(program);
            code.setDescription("made for shell jobs running " + program + " on " + computer.label());
            code.defaultCalcJobPlugin(ShellJob.ENTRY_POINT);
            return code;
        }
    }
}
