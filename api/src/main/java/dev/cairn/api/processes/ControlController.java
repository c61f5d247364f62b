package dev.cairn.api.processes;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.security.CurrentUser;
import dev.cairn.storage.errors.InvalidInputException;

/** Pause, play and kill, of one process or many by a filter; and keeping a calculation from being a cache source. */
@RestController
@RequestMapping("/api/v1/processes")
@Tag(name = "processes", description = "Launch, list, show, follow and control processes")
class ControlController {

    private static final String ONE = """
            Recorded in the database under the process's lock, then signalled to the worker that holds it; \
            the process's report says who did it. A process that cannot take it (it ended, or is paused \
            already for a pause, or not paused for a play) is a 409 saying why. Needs the role submit.""";
    private static final String MANY = """
            Acts on every process the filter matches that can take the action (live ones; for a pause those \
            not paused, for a play the paused ones), oldest first, at most 'limit'; 'more' says whether more \
            matched: send the request again for them. Each process gets its outcome, refusals included (one \
            that ended in between). An empty filter is refused unless all=true. Needs the role submit.""";

    private final ProcessControlService controls;
    private final WorkdirCleaning workdirs;
    private final int batchMax;

    ControlController(ProcessControlService controls, WorkdirCleaning workdirs, CairnProperties properties) {
        this.controls = controls;
        this.workdirs = workdirs;
        this.batchMax = properties.limits().batchMax();
    }

    @PostMapping("/{ref}/pause")
    @Operation(
            operationId = "pauseProcess",
            summary = "Pause a process: it finishes its current step, then waits until played",
            description = ONE)
    @ApiResponse(responseCode = "409", description = "the process ended, or is paused already")
    @ProcessRefParameter
    ControlResult pause(@PathVariable("ref") String ref) {
        return controls.one(ProcessControlService.Action.PAUSE, ref, CurrentUser.id());
    }

    @PostMapping("/{ref}/play")
    @Operation(
            operationId = "playProcess",
            summary = "Play a paused process: it goes on where it stopped",
            description = ONE)
    @ApiResponse(responseCode = "409", description = "the process ended, or is not paused")
    @ProcessRefParameter
    ControlResult play(@PathVariable("ref") String ref) {
        return controls.one(ProcessControlService.Action.PLAY, ref, CurrentUser.id());
    }

    @PostMapping("/{ref}/kill")
    @Operation(
            operationId = "killProcess",
            summary = "Kill a process and its live descendants",
            description = ONE + " A running step is interrupted; a calculation job's scheduler job is cancelled.")
    @ApiResponse(responseCode = "409", description = "the process ended already")
    @ProcessRefParameter
    ControlResult kill(@PathVariable("ref") String ref) {
        return controls.one(ProcessControlService.Action.KILL, ref, CurrentUser.id());
    }

    @PostMapping("/pause")
    @Operation(operationId = "pauseProcesses", summary = "Pause every process a filter matches", description = MANY)
    @ManyProcessesParameters
    ControlReport pauseMany(
            @RequestBody(required = false) ProcessFilter filter,
            @RequestParam(name = "all", defaultValue = "false") boolean all,
            @RequestParam(name = "limit", defaultValue = "1000") int limit) {
        return many(ProcessControlService.Action.PAUSE, filter, all, limit);
    }

    @PostMapping("/play")
    @Operation(
            operationId = "playProcesses",
            summary = "Play every paused process a filter matches",
            description = MANY)
    @ManyProcessesParameters
    ControlReport playMany(
            @RequestBody(required = false) ProcessFilter filter,
            @RequestParam(name = "all", defaultValue = "false") boolean all,
            @RequestParam(name = "limit", defaultValue = "1000") int limit) {
        return many(ProcessControlService.Action.PLAY, filter, all, limit);
    }

    @PostMapping("/kill")
    @Operation(
            operationId = "killProcesses",
            summary = "Kill every live process a filter matches, with their descendants",
            description = MANY)
    @ManyProcessesParameters
    ControlReport killMany(
            @RequestBody(required = false) ProcessFilter filter,
            @RequestParam(name = "all", defaultValue = "false") boolean all,
            @RequestParam(name = "limit", defaultValue = "1000") int limit) {
        return many(ProcessControlService.Action.KILL, filter, all, limit);
    }

    @PostMapping("/{ref}/invalidate-cache")
    @Operation(
            operationId = "invalidateCache",
            summary = "Keep a calculation from serving as a cache source",
            description = "Sets its extra _cairn_valid_cache to false: no later launch takes its outputs from it."
                    + " Only calculations (calcfunctions, calculation jobs) are cache sources; a workflow is a 400."
                    + " Needs the role submit.")
    CacheValidity invalidateCache(
            @Parameter(
                            description = "the calculation's uuid, a unique prefix of it, or its PK as pk:42",
                            example = "0190c1a2")
                    @PathVariable("ref")
                    String ref) {
        return controls.invalidateCache(ref, CurrentUser.id());
    }

    @PostMapping("/clean-workdir")
    @Operation(
            operationId = "cleanWorkdirs",
            summary = "Remove the working folders calculation jobs left on their computers",
            description = """
                    As verdi calcjob cleanworkdir: removes the working folder of each calculation job the filter \
                    matches and of each job the workflows it matches called, at any depth, through the \
                    computer's transport. A job still running, or called by a process still running, is skipped \
                    (a later step may read its folder), and so is one cleaned before. Each \
                    removed folder's RemoteData gets the extra cleaned=true, and the jobs whose folder it was \
                    stop serving as cache sources (a job from the cache points at its source's folder). A \
                    folder that is not there counts as removed; a computer that cannot be reached fails its \
                    jobs, each saying why, and the others go on. A filter matching more than \
                    cairn.limits.batch-max (1000) processes is a 400, to be narrowed; an empty one is \
                    refused unless all=true. Needs the role submit.""")
    WorkdirReport cleanWorkdirs(
            @RequestBody(required = false) ProcessFilter filter,
            @Parameter(description = "true: an empty filter means every process")
                    @RequestParam(name = "all", defaultValue = "false")
                    boolean all,
            @Parameter(description = "true: remove nothing, say what would be removed")
                    @RequestParam(name = "dry_run", defaultValue = "false")
                    boolean dryRun) {
        return workdirs.clean(filter == null ? ProcessFilter.ANY : filter, all, dryRun, batchMax);
    }

    /** One action on what the filter (none: every process, with all=true) matches, as the caller. */
    private ControlReport many(ProcessControlService.Action action, ProcessFilter filter, boolean all, int limit) {
        return controls.many(
                action, filter == null ? ProcessFilter.ANY : filter, all, checked(limit), CurrentUser.id());
    }

    private int checked(int limit) {
        if (limit < 1 || limit > batchMax) {
            throw new InvalidInputException(
                    "limit must be between 1 and " + batchMax + " (cairn.limits.batch-max)," + " not " + limit);
        }
        return limit;
    }
}
