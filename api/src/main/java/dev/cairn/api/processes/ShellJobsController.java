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

/** Shell jobs launched from a command line: any program, no plugin. */
@RestController
@RequestMapping("/api/v1/shell-jobs")
@Tag(
        name = "shell-jobs",
        description = "Run any program as a calculation job (core.shell), with full provenance: a command line, its"
                + " input files and values, its output files")
class ShellJobsController {

    private final ShellJobs shellJobs;
    private final int batchMax;

    ShellJobsController(ShellJobs shellJobs, CairnProperties properties) {
        this.shellJobs = shellJobs;
        this.batchMax = properties.limits().batchMax();
    }

    @PostMapping
    @Operation(operationId = "submitShellJob", summary = "Run a command as a shell job", description = """
                    Splits the command into the program and its arguments, finds the program's code on the \
                    computer (label@computer; at the program's first run there, a new code at the path the \
                    computer's `which` gives, stored with the job) and launches core.shell with the other \
                    fields as its inputs. A program the computer does not have, a placeholder with no input, a \
                    value where a file is needed, two files of one name: a 400 naming each problem, and nothing \
                    is stored. The process is followed as any other (GET /api/v1/processes/{ref}, the event \
                    stream). Needs the role submit.""")
    @ApiResponse(responseCode = "201", description = "launched; Location is the process")
    ResponseEntity<ProcessSummary> submitShellJob(@RequestBody ShellJobRequest request) {
        ProcessSummary launched = shellJobs.submit(CurrentUser.principal(), request);
        return ResponseEntity.created(URI.create("/api/v1/processes/" + launched.uuid()))
                .body(launched);
    }

    @PostMapping("/batch")
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(operationId = "submitShellJobs", summary = "Run many shell jobs at once: all or none", description = """
                    Every job is checked first; if any is refused, none is launched and the 400's 'problems' name \
                    each problem by the job's index (`jobs[3]: …`). A program's new code is made once for all \
                    the jobs that run it. At most cairn.limits.batch-max (1000) jobs. Needs the role submit.""")
    @ApiResponse(responseCode = "201", description = "launched, in the order of the jobs")
    BatchResponse submitShellJobs(@RequestBody ShellJobBatchRequest request) {
        List<ShellJobRequest> jobs = Batches.checkSize(request.jobs(), "jobs", batchMax);
        List<ProcessSummary> launched = shellJobs.submitAll(CurrentUser.principal(), jobs);
        return new BatchResponse(launched.size(), launched);
    }
}
