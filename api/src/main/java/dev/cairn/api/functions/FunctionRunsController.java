package dev.cairn.api.functions;

import java.net.URI;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.cairn.api.security.CurrentUser;

/** Functions a client runs itself, recorded with full provenance and served from the cache. */
@RestController
@RequestMapping("/api/v1/function-runs")
@Tag(
        name = "function-runs",
        description = "Record the functions a client runs itself (a Python function) as calcfunctions: inputs,"
                + " outputs and source, reused from the cache like any calculation")
class FunctionRunsController {

    private final FunctionRuns runs;

    FunctionRunsController(FunctionRuns runs) {
        this.runs = runs;
    }

    @PostMapping("/reuse")
    @Operation(operationId = "reuseFunctionRun", summary = "Take a call's outputs from the cache", description = """
                    Before a client runs a function it asks here: when caching is on for the function \
                    (use_cache, or the server's cairn.caching for the process type python:<module>.<name>) and a \
                    finished run of it has the same hash (the same inputs, the same name and source), the call is \
                    stored as that run's copy, its outputs copied, and hit is true; the client need not run it. \
                    Otherwise hit is false and nothing is stored: run it, then POST /api/v1/function-runs. Bad \
                    input is a 400 naming every problem. Needs the role submit.""")
    FunctionReuse reuse(@RequestBody FunctionCallRequest request) {
        return runs.reuse(request, CurrentUser.principal());
    }

    @PostMapping
    @Operation(operationId = "recordFunctionRun", summary = "Record a run of a client's function", description = """
                    Stores a function the client ran as a calcfunction of the process type \
                    python:<module>.<name>, as the calling user, in one transaction: its input nodes (new values \
                    and stored nodes, linked as its inputs), its source (the file source_file; its SHA-256 in the \
                    attribute source_sha256, part of the hash), and how it ended: finished with its new outputs \
                    (exit status 0), finished with a non-zero exit status and no outputs, or excepted with what it \
                    raised. A stored node as an output, outputs with a failure, a name that is not a port name: a \
                    400 naming every problem, and nothing is stored. Needs the role submit.""")
    @ApiResponse(responseCode = "201", description = "recorded; Location is the process")
    ResponseEntity<FunctionRun> record(@RequestBody FunctionRunRequest request) {
        FunctionRun run = runs.record(request, CurrentUser.principal());
        return ResponseEntity.created(
                        URI.create("/api/v1/processes/" + run.process().uuid()))
                .body(run);
    }
}
