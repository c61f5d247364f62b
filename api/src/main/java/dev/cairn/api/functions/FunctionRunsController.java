package dev.cairn.api.functions;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.api.data.FileGroups;
import dev.cairn.api.processes.ProcessSummary;
import dev.cairn.api.security.CurrentUser;
import dev.cairn.api.web.JsonProblems;
import dev.cairn.storage.errors.InvalidInputException;

/** Functions a client runs itself, recorded with full provenance and served from the cache. */
@RestController
@RequestMapping("/api/v1/function-runs")
@Tag(
        name = "function-runs",
        description = "Record the functions a client runs itself (a Python function) as calcfunctions: inputs,"
                + " outputs and source, reused from the cache like any calculation")
class FunctionRunsController {

    /** The multipart parts that carry the files of outputs of the type file, folder or array. */
    static final String FILES = "files";

    private final FunctionRuns runs;
    private final JsonMapper json;

    FunctionRunsController(FunctionRuns runs, JsonMapper json) {
        this.runs = runs;
        this.json = json;
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

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @RecordsFunctionRun
    ResponseEntity<FunctionRun> record(@RequestBody FunctionRunRequest request) {
        return created(runs.record(request, FileGroups.none(FILES), CurrentUser.principal()));
    }

    @PostMapping(consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    @RecordsFunctionRun
    ResponseEntity<FunctionRun> recordWithFiles(
            @Parameter(hidden = true) @RequestPart("run") String run,
            @Parameter(hidden = true) @RequestPart(name = FILES, required = false) List<MultipartFile> files)
            throws IOException {
        FunctionRunRequest request;
        try {
            request = json.readValue(run, FunctionRunRequest.class);
        } catch (JacksonException e) {
            throw new InvalidInputException("part 'run': " + JsonProblems.describe(e));
        }
        if (request == null) {
            throw new InvalidInputException("part 'run': null; it is the run as a JSON object");
        }
        try (FileGroups groups = FileGroups.of(FILES, files == null ? List.of() : files)) {
            return created(runs.record(request, groups, CurrentUser.principal()));
        }
    }

    @PostMapping(path = "/workflows", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(
            operationId = "openWorkflowFunctionRun",
            summary = "Open a run of a client's workflow function",
            description = """
                    A workflow function (AiiDA's workfunction) runs in the client and calls calculation functions, \
                    and other workflow functions, that the client records with this run's uuid as their caller \
                    (FunctionCallRequest's caller), so that they are linked as its calls. This stores its node, of \
                    the process type python:<module>.<name>, with its inputs (and its caller, when the request names \
                    one), waiting while the client runs it; POST …/workflows/{uuid}/end ends it. A client that dies \
                    leaves it waiting: kill it (POST /api/v1/processes/{ref}/kill) as any process. It is not taken \
                    from the cache; what it calls may be. Bad input is a 400 naming every problem, and nothing is \
                    stored. Needs the role submit.""")
    @ApiResponse(responseCode = "201", description = "opened; Location is the process")
    ResponseEntity<ProcessSummary> open(@RequestBody FunctionCallRequest request) {
        ProcessSummary run = runs.open(request, CurrentUser.principal());
        return ResponseEntity.created(URI.create("/api/v1/processes/" + run.uuid()))
                .body(run);
    }

    @PostMapping(path = "/workflows/{uuid}/end", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(
            operationId = "endWorkflowFunctionRun",
            summary = "End a run of a client's workflow function",
            description = """
                    Ends an open run: finished with the stored data it returned (RETURN links: what the functions it \
                    called made, or its inputs; a new value is refused, since a workflow creates no data) and its \
                    exit status, or excepted with what it raised. Only the user who opened it may end it. Needs the \
                    role submit.""")
    @ApiResponse(
            responseCode = "404",
            description = "no open run of a client's workflow function has the uuid",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(
            responseCode = "409",
            description = "the run has ended already (it was killed, most likely)",
            content = @Content(mediaType = "application/problem+json"))
    FunctionRun end(
            @Parameter(description = "the run's uuid, as opening it answered") @PathVariable("uuid") UUID uuid,
            @RequestBody WorkflowEnding request) {
        return runs.end(uuid, request, CurrentUser.principal());
    }

    private static ResponseEntity<FunctionRun> created(FunctionRun run) {
        return ResponseEntity.created(
                        URI.create("/api/v1/processes/" + run.process().uuid()))
                .body(run);
    }
}
