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

/** Launching processes from JSON: one, a batch, or a cache explanation that launches nothing. */
@RestController
@RequestMapping("/api/v1/processes")
@Tag(name = "processes", description = "Launch, list, show, follow and control processes")
class LaunchController {

    private final LaunchService launches;
    private final int batchMax;

    LaunchController(LaunchService launches, CairnProperties properties) {
        this.launches = launches;
        this.batchMax = properties.limits().batchMax();
    }

    @PostMapping
    @Operation(operationId = "submitProcess", summary = "Launch a process", description = """
                    Stores the process with its inputs (inline values become new data nodes) and hands it to the \
                    workers, as the calling user. The inputs are checked against the process type's spec first: \
                    a launch that does not fit is a 400 whose 'problems' list every problem by port, and nothing \
                    is stored. An unknown entry point is a 400 naming the known ones. Needs the role submit.""")
    @ApiResponse(responseCode = "201", description = "launched; Location is the process")
    ResponseEntity<ProcessSummary> submit(@RequestBody LaunchRequest request) {
        ProcessSummary launched = launches.submit(request, CurrentUser.principal());
        return ResponseEntity.created(URI.create("/api/v1/processes/" + launched.uuid()))
                .body(launched);
    }

    @PostMapping("/batch")
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(
            operationId = "submitProcesses",
            summary = "Launch many processes at once: all or none",
            description = """
                    Every launch is decoded and checked first; if any is invalid, none is launched and the 400's \
                    'problems' name each problem by the launch's index and port (`launches[3]: input 'x' …`). \
                    Then all are stored in one transaction and handed to the workers in one confirmed publish. \
                    At most cairn.limits.batch-max (1000) launches. Needs the role submit.""")
    @ApiResponse(responseCode = "201", description = "launched, in the order of the launches")
    BatchResponse batch(@RequestBody BatchRequest request) {
        List<LaunchRequest> given = Batches.checkSize(request.launches(), "launches", batchMax);
        List<ProcessSummary> launched = launches.submitAll(given, CurrentUser.principal());
        return new BatchResponse(launched.size(), launched);
    }

    @PostMapping("/explain-cache")
    @Operation(
            operationId = "explainCache",
            summary = "Say whether a launch would be taken from the cache, and why",
            description = """
                    The launch is decoded and checked as for a submit, then compared with the finished \
                    calculations of its type by hash: a hit names the source it would copy, a miss the nearest \
                    candidate and how its inputs differ. Nothing is stored. Needs the role read.""")
    CacheExplanation explainCache(@RequestBody LaunchRequest request) {
        return launches.explainCache(request, CurrentUser.id());
    }
}
