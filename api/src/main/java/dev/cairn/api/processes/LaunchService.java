package dev.cairn.api.processes;

import java.util.ArrayList;
import java.util.List;

import org.springframework.stereotype.Service;

import dev.cairn.api.security.CairnPrincipal;
import dev.cairn.engine.Engine;
import dev.cairn.engine.launch.JsonInputs;
import dev.cairn.engine.launch.Launcher;
import dev.cairn.engine.launch.Launcher.Launch;
import dev.cairn.engine.launch.ReferenceResolver;
import dev.cairn.engine.plugin.PluginRegistry;
import dev.cairn.engine.plugin.UnknownProcessTypeException;
import dev.cairn.engine.process.InvalidInputsException;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.engine.process.WorkChainDefinition;
import dev.cairn.engine.process.WorkFunction;
import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.ProcessNode;

/**
 * Launching processes for every surface of the server: one, a batch stored whole or not at all, or a
 * cache explanation that launches nothing; and the process types there are to launch. Launches come in
 * JSON, decoded by their process types' specs ({@link JsonInputs}) into the engine's form and checked
 * before anything is stored, so a refusal leaves nothing behind.
 */
@Service
class LaunchService {

    private final PluginRegistry plugins;
    private final Launcher launcher;
    private final ReferenceResolver references;
    private final JsonInputs json;

    LaunchService(Engine engine, Storage storage) {
        this.plugins = engine.plugins();
        this.launcher = engine.launcher();
        this.references = ReferenceResolver.of(storage.graph(), storage.computers());
        this.json = new JsonInputs(references);
    }

    /** Every process type this server can launch, in name order. */
    public List<ProcessTypeView> processTypes() {
        return plugins.all().stream().map(ProcessTypeView::of).toList();
    }

    /** One process type; an unknown entry point is a 404 naming the known ones. */
    public ProcessTypeView processType(String entryPoint) {
        return ProcessTypeView.of(plugins.get(entryPoint));
    }

    /** Stores the process {@code request} asks for with its inputs and hands it to the workers, as the user. */
    public ProcessSummary submit(LaunchRequest request, CairnPrincipal user) {
        Launch launch = decode(request);
        return ProcessSummary.launched(launcher.forUser(user.userId()).submit(launch), user.email(), launch.caller());
    }

    /**
     * Stores every launch in one transaction and hands them to the workers, or refuses all together: each
     * launch is decoded and checked first, every problem named by the launch's index
     * ({@code launches[3]: input 'x' …}).
     */
    public List<ProcessSummary> submitAll(List<LaunchRequest> requests, CairnPrincipal user) {
        Launcher forUser = launcher.forUser(user.userId());
        List<Launch> valid = Batches.decodeAll(requests, "launches", this::decode, forUser);
        return summaries(valid, forUser.submitAll(valid), user.email());
    }

    /** What a batch launched, each with its caller. */
    static List<ProcessSummary> summaries(List<Launch> launches, List<ProcessNode> nodes, String user) {
        List<ProcessSummary> summaries = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            summaries.add(
                    ProcessSummary.launched(nodes.get(i), user, launches.get(i).caller()));
        }
        return summaries;
    }

    /** Whether the launch would take its outputs from the cache, and why; nothing is stored. */
    public CacheExplanation explainCache(LaunchRequest request, long userId) {
        Launch launch = decode(request);
        Launcher forUser = launcher.forUser(userId);
        if (launch.definition() instanceof WorkChainDefinition<?> || launch.definition() instanceof WorkFunction) {
            forUser.validate(launch.definition(), launch.inputs());
            return new CacheExplanation(
                    launch.definition().entryPoint(),
                    false,
                    "never: workflows are not taken from the cache, only the calculations they call");
        }
        String explanation = forUser.explainCache(launch.definition(), launch.inputs());
        return new CacheExplanation(launch.definition().entryPoint(), explanation.startsWith("hit"), explanation);
    }

    /**
     * One launch; its problems are refused together, by port.
     *
     * @throws InvalidInputException for an unknown entry point, an {@link InvalidInputsException} for the rest
     */
    private Launch decode(LaunchRequest request) {
        ProcessDefinition definition = definition(request);
        return new Launch(
                definition,
                json.decode(definition, request.inputs(), request.metadata()),
                Callers.of(references, request.caller()));
    }

    private ProcessDefinition definition(LaunchRequest request) {
        if (request.entryPoint() == null || request.entryPoint().isBlank()) {
            throw new InvalidInputException(
                    "'entry_point' is required: the process type to run (GET /api/v1/process-types lists them)");
        }
        try {
            return plugins.get(request.entryPoint());
        } catch (UnknownProcessTypeException e) {
            // in a request body an unknown name is bad input, not a missing resource
            throw new InvalidInputException("unknown entry point '" + request.entryPoint()
                    + "' (GET /api/v1/process-types lists them with their inputs); "
                    + e.getMessage().replaceFirst("^no plugin provides the process type '[^']*'; ", ""));
        }
    }
}
