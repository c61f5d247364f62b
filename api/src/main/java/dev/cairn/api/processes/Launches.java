package dev.cairn.api.processes;

import java.util.List;

import org.springframework.stereotype.Component;

import dev.cairn.engine.Engine;
import dev.cairn.engine.launch.JsonInputs;
import dev.cairn.engine.launch.Launcher;
import dev.cairn.engine.launch.ReferenceResolver;
import dev.cairn.engine.plugin.UnknownProcessTypeException;
import dev.cairn.engine.process.InvalidInputsException;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.errors.InvalidInputException;
import dev.cairn.storage.graph.computers.ComputerStore;

/**
 * Launches given in JSON, decoded by their process types' specs ({@link JsonInputs}) into the
 * engine's form. Nothing is stored here: a refusal leaves nothing behind.
 */
@Component
class Launches {

    private final Engine engine;
    private final JsonInputs json;

    Launches(Engine engine) {
        this.engine = engine;
        this.json = new JsonInputs(ReferenceResolver.of(engine.graph(), new ComputerStore(engine.database())));
    }

    /**
     * One launch; its problems are refused together, by port.
     *
     * @throws InvalidInputException for an unknown entry point, an {@link InvalidInputsException} for the rest
     */
    Launcher.Launch decode(LaunchRequest request) {
        ProcessDefinition definition = definition(request);
        return new Launcher.Launch(definition, json.decode(definition, request.inputs(), request.metadata()));
    }

    /**
     * Many launches, each decoded and checked as a submit would check it, so that the batch is
     * launched whole or not at all; every problem of every launch is refused together, each
     * named by the launch's index ({@code launches[3]: input 'x' …}).
     */
    List<Launcher.Launch> decodeAll(List<LaunchRequest> requests, Launcher launcher) {
        return Batches.decodeAll(requests, "launches", this::decode, launcher);
    }

    private ProcessDefinition definition(LaunchRequest request) {
        if (request.entryPoint() == null || request.entryPoint().isBlank()) {
            throw new InvalidInputException(
                    "'entry_point' is required: the process type to run (GET /api/v1/process-types lists them)");
        }
        try {
            return engine.plugins().get(request.entryPoint());
        } catch (UnknownProcessTypeException e) {
            // in a request body an unknown name is bad input, not a missing resource
            throw new InvalidInputException("unknown entry point '" + request.entryPoint()
                    + "' (GET /api/v1/process-types lists them with their inputs); "
                    + e.getMessage().replaceFirst("^no plugin provides the process type '[^']*'; ", ""));
        }
    }
}
