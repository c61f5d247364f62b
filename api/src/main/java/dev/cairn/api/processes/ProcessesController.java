package dev.cairn.api.processes;

import java.time.OffsetDateTime;
import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.format.annotation.DateTimeFormat;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.web.CommaLists;
import dev.cairn.api.web.Page;
import dev.cairn.storage.errors.InvalidInputException;

/** Reading processes: the list, one process, its call tree, its report. */
@RestController
@RequestMapping("/api/v1/processes")
@Tag(name = "processes", description = "Launch, list, show, follow and control processes")
class ProcessesController {

    private final ProcessService processes;
    private final int pageMax;

    ProcessesController(ProcessService processes, CairnProperties properties) {
        this.processes = processes;
        this.pageMax = properties.limits().pageMax();
    }

    @GetMapping
    @Operation(operationId = "listProcesses", summary = "List processes, newest first", description = """
                    Every process, called ones included (top_level=true for those nobody called), filtered by \
                    any of the parameters, each criterion given must hold. Paged by keyset: 'next' (also in the \
                    Link header) asks for the following page; count=true adds the total. Needs the role read.""")
    ResponseEntity<Page<ProcessSummary>> list(
            @Parameter(description = "in one of these states (repeat, or comma-separate)", example = "waiting")
                    @RequestParam(name = "state", required = false)
                    List<String> state,
            @Parameter(description = "entry point, or a prefix of one ending in '*'", example = "arithmetic.*")
                    @RequestParam(name = "type", required = false)
                    String type,
            @Parameter(
                            description = "of one of these kinds (repeat, or comma-separate): calculation function,"
                                    + " calculation job, work chain, work function",
                            array =
                                    @ArraySchema(
                                            schema =
                                                    @Schema(
                                                            allowableValues = {
                                                                "calcfunction",
                                                                "calcjob",
                                                                "workchain",
                                                                "workfunction"
                                                            })),
                            example = "calcjob")
                    @RequestParam(name = "kind", required = false)
                    List<String> kind,
            @Parameter(description = "the node's label, or a prefix of it ending in '*'", example = "run-*")
                    @RequestParam(name = "label", required = false)
                    String label,
            @Parameter(description = "finished with this exit status", example = "0")
                    @RequestParam(name = "exit_status", required = false)
                    Integer exitStatus,
            @Parameter(description = "true: finished with a non-zero exit status", example = "true")
                    @RequestParam(name = "failed", required = false)
                    Boolean failed,
            @Parameter(description = "paused (true) or not (false)", example = "true")
                    @RequestParam(name = "paused", required = false)
                    Boolean paused,
            @Parameter(description = "launched at or after (ISO 8601)", example = "2026-11-24T00:00:00Z")
                    @RequestParam(name = "since", required = false)
                    @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME)
                    OffsetDateTime since,
            @Parameter(description = "launched before (ISO 8601)", example = "2026-11-25T00:00:00Z")
                    @RequestParam(name = "until", required = false)
                    @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME)
                    OffsetDateTime until,
            @Parameter(description = "called by this process (uuid or unique prefix)", example = "0190c1a2")
                    @RequestParam(name = "caller", required = false)
                    String caller,
            @Parameter(description = "true: only processes nobody called; false: only called ones", example = "true")
                    @RequestParam(name = "top_level", required = false)
                    Boolean topLevel,
            @Parameter(description = "in the group of this label (of type core)", example = "relaxations")
                    @RequestParam(name = "group", required = false)
                    String group,
            @Parameter(
                            description = "-ctime (newest first, the default), ctime (oldest first), -mtime (last"
                                    + " changed first) or mtime",
                            example = "-ctime")
                    @RequestParam(name = "order", defaultValue = "-ctime")
                    String order,
            @Parameter(description = "items per page, at most cairn.limits.page-max (1000)", example = "100")
                    @RequestParam(name = "limit", defaultValue = "100")
                    int limit,
            @Parameter(description = "the 'next' of the previous page") @RequestParam(name = "cursor", required = false)
                    String cursor,
            @Parameter(description = "true: add the total number of matching processes", example = "false")
                    @RequestParam(name = "count", defaultValue = "false")
                    boolean count) {
        checkLimit(limit);
        ProcessFilter filter = new ProcessFilter(
                null,
                CommaLists.names(state),
                type,
                kinds(kind),
                label,
                exitStatus,
                failed,
                paused,
                since,
                until,
                caller,
                topLevel,
                group);
        Page<ProcessSummary> page = processes.list(filter, order, cursor, limit, count);
        return withNextLink(page);
    }

    // /processes/kill, /batch, ... are no process's ref: so OPTIONS there answers Allow with their own
    // methods only
    @GetMapping("/{ref:(?!(?:batch|clean-workdir|explain-cache|kill|pause|play)$).+}")
    @Operation(
            operationId = "showProcess",
            summary = "One process: inputs, outputs, caller, called processes, how it ended",
            description = """
                    Its inputs and outputs by port path (a plain Int, Float, Str or Bool with its value), the \
                    processes it called, its exit code with the label and message its process type gives it, the \
                    stack trace of an excepted process, and for a calculation job its scheduler job. Needs the \
                    role read.""")
    @ProcessRefParameter
    ProcessDetail show(@PathVariable("ref") String ref) {
        return processes.show(ref);
    }

    @GetMapping("/{ref}/tree")
    @Operation(
            operationId = "showProcessTree",
            summary = "The call tree of a process, each with its state",
            description = "The process and every process it called, directly or not, by CALL links: calculation"
                    + " functions run inside a step are there too. Needs the role read.")
    @ProcessRefParameter
    ProcessTreeNode tree(@PathVariable("ref") String ref) {
        return processes.tree(ref);
    }

    @GetMapping("/{ref}/report")
    @Operation(
            operationId = "showProcessReport",
            summary = "The log of a process and of every process it called",
            description = "Log records at the level given or above, oldest first, of the whole call tree (what"
                    + " 'verdi process report' shows). Paged: 'next' asks for more. Needs the role read.")
    @ProcessRefParameter
    ResponseEntity<Page<ReportEntry>> report(
            @PathVariable("ref") String ref,
            @Parameter(
                            description =
                                    "the least level: DEBUG, INFO, REPORT (the default), WARNING, ERROR, CRITICAL",
                            example = "REPORT")
                    @RequestParam(name = "level", defaultValue = "REPORT")
                    String level,
            @Parameter(description = "records per page, at most cairn.limits.page-max (1000)", example = "1000")
                    @RequestParam(name = "limit", defaultValue = "1000")
                    int limit,
            @Parameter(description = "the 'next' of the previous page") @RequestParam(name = "cursor", required = false)
                    String cursor) {
        checkLimit(limit);
        return withNextLink(processes.report(ref, level, cursor, limit));
    }

    /** The kinds asked for; a value given that names none ({@code ?kind=}) is refused, not read as "any kind". */
    private static List<String> kinds(List<String> given) {
        // ?kind= binds as an empty list or one empty value; ?kind=calcjob&kind= as two values, one empty
        if (given != null
                && (given.isEmpty()
                        || given.stream()
                                .anyMatch(k -> k == null
                                        || CommaLists.names(List.of(k)).isEmpty()))) {
            throw new InvalidInputException("kind is given but names no kind; the kinds are " + ProcessSummary.kinds());
        }
        return CommaLists.names(given);
    }

    private void checkLimit(int limit) {
        if (limit < 1 || limit > pageMax) {
            throw new InvalidInputException(
                    "limit must be between 1 and " + pageMax + " (cairn.limits.page-max), not " + limit);
        }
    }

    /** The page, with {@code Link: <…>; rel="next"} when there is a next page. */
    static <T> ResponseEntity<Page<T>> withNextLink(Page<T> page) {
        ResponseEntity.BodyBuilder response = ResponseEntity.ok();
        if (page.next() != null) {
            String next = ServletUriComponentsBuilder.fromCurrentRequest()
                    .replaceQueryParam("cursor", page.next())
                    .build()
                    .toUriString();
            response.header(HttpHeaders.LINK, "<" + next + ">; rel=\"next\"");
        }
        return response.body(page);
    }
}
