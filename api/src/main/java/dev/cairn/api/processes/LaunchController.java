package dev.cairn.api.processes;

import java.net.URI;
import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.security.CurrentUser;
import dev.cairn.engine.Engine;
import dev.cairn.engine.launch.Launcher;
import dev.cairn.engine.process.WorkChainDefinition;
import dev.cairn.engine.process.WorkFunction;
import dev.cairn.storage.graph.ProcessNode;

/** Launching processes from JSON: one, a batch, or a cache explanation that launches nothing. */
@RestController
@RequestMapping("/api/v1/processes")
@Tag(name = "processes", description = "Launch, list, show, follow and control processes")
class LaunchController {

    private final Engine engine;
    private final Launches launches;
    private final int batchMax;

    LaunchController(Engine engine, Launches launches, CairnProperties properties) {
        this.engine = engine;
        this.launches = launches;
        this.batchMax = properties.limits().batchMax();
    }

    @PostMapping
    @Operation(summary = "Launch a process", description = """
                    Stores the process with its inputs (inline values become new data nodes) and hands it to the \
                    workers, as the calling user. The inputs are checked against the process type's spec first: \
                    a launch that does not fit is a 400 whose 'problems' list every problem by port, and nothing \
                    is stored. An unknown entry point is a 400 naming the known ones. Needs the role submit.""")
    @ApiResponse(responseCode = "201", description = "launched; Location is the process")
    ResponseEntity<ProcessSummary> submit(@RequestBody LaunchRequest request) {
        Launcher.Launch launch = launches.decode(request);
        ProcessNode node = engine.launcher().forUser(CurrentUser.id()).submit(launch.definition(), launch.inputs());
        return ResponseEntity.created(URI.create("/api/v1/processes/" + node.uuid()))
                .body(summary(node));
    }

    @PostMapping("/batch")
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(summary = "Launch many processes at once: all or none", description = """
                    Every launch is decoded and checked first; if any is invalid, none is launched and the 400's \
                    'problems' name each problem by the launch's index and port (`launches[3]: input 'x' …`). \
                    Then all are stored in one transaction and handed to the workers in one confirmed publish. \
                    At most cairn.limits.batch-max (1000) launches. Needs the role submit.""")
    @ApiResponse(responseCode = "201", description = "launched, in the order of the launches")
    BatchResponse batch(@RequestBody BatchRequest request) {
        List<LaunchRequest> given = Batches.checkSize(request.launches(), "launches", batchMax);
        Launcher launcher = engine.launcher().forUser(CurrentUser.id());
        List<Launcher.Launch> valid = launches.decodeAll(given, launcher);
        List<ProcessSummary> launched =
                launcher.submitAll(valid).stream().map(this::summary).toList();
        return new BatchResponse(launched.size(), launched);
    }

    @PostMapping("/explain-cache")
    @Operation(summary = "Say whether a launch would be taken from the cache, and why", description = """
                    The launch is decoded and checked as for a submit, then compared with the finished \
                    calculations of its type by hash: a hit names the source it would copy, a miss the nearest \
                    candidate and how its inputs differ. Nothing is stored. Needs the role read.""")
    CacheExplanation explainCache(@RequestBody LaunchRequest request) {
        Launcher.Launch launch = launches.decode(request);
        Launcher launcher = engine.launcher().forUser(CurrentUser.id());
        if (launch.definition() instanceof WorkChainDefinition<?> || launch.definition() instanceof WorkFunction) {
            launcher.validate(launch.definition(), launch.inputs());
            return new CacheExplanation(
                    launch.definition().entryPoint(),
                    false,
                    "never: workflows are not taken from the cache, only the calculations they call");
        }
        String explanation = launcher.explainCache(launch.definition(), launch.inputs());
        return new CacheExplanation(launch.definition().entryPoint(), explanation.startsWith("hit"), explanation);
    }

    /** A process just launched, as lists show it. */
    private ProcessSummary summary(ProcessNode node) {
        return ProcessSummary.launched(node, CurrentUser.principal().email());
    }
}
