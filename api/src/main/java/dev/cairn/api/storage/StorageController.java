package dev.cairn.api.storage;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.api.storage.StorageViews.BackupRequest;
import dev.cairn.api.storage.StorageViews.MaintenanceReport;
import dev.cairn.api.storage.StorageViews.MaintenanceRequest;
import dev.cairn.api.storage.StorageViews.StorageInfo;
import dev.cairn.api.storage.StorageViews.ValidationView;
import dev.cairn.api.web.Problems;
import dev.cairn.storage.backup.Backups;
import dev.cairn.storage.errors.CairnException;
import dev.cairn.storage.errors.InvalidInputException;

/** The installation's storage: its size, object store maintenance, validation and backups. */
@RestController
@RequestMapping("/api/v1/storage")
@Tag(
        name = "storage",
        description = "The graph's and the object store's size (role read), maintenance, validation and backups"
                + " (role admin)")
class StorageController {

    private static final Logger LOG = LoggerFactory.getLogger(StorageController.class);
    static final String NDJSON = "application/x-ndjson";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final StorageService storage;

    StorageController(StorageService storage) {
        this.storage = storage;
    }

    @GetMapping
    @Operation(
            operationId = "showStorage",
            summary = "Counts of nodes, links, groups and users, and the object store's loose and packed objects",
            description = "With detailed=true, nodes per node type too.")
    StorageInfo info(
            @Parameter(description = "also count nodes per node type", example = "true")
                    @RequestParam(name = "detailed", defaultValue = "false")
                    boolean detailed)
            throws IOException {
        return storage.info(detailed);
    }

    @PostMapping(path = "/maintenance", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(
            operationId = "maintainStorage",
            summary = "Maintain the object store while the server runs",
            description = "Packs loose objects and removes their loose copies. With full=true it also compacts the"
                    + " pack index, rewrites packs that hold deleted bytes, and deletes objects no node refers to in"
                    + " two phases: it marks them for deletion, and a full run at least the deletion grace later"
                    + " (cairn.store.deletion-grace, 1 h) deletes those still unreferenced and not stored again."
                    + " Meanwhile a node stored with the same bytes stores them anew, so it never ends up pointing"
                    + " at a deleted object. With dryRun=true nothing changes and the report says what would be"
                    + " done.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(examples = @ExampleObject(value = "{\"full\": false, \"dryRun\": true}"))))
    @ApiResponse(
            responseCode = "200",
            description = "What was done, or would be; asked for as NDJSON, each step as it begins and then that",
            content = {
                @Content(
                        mediaType = MediaType.APPLICATION_JSON_VALUE,
                        schema = @Schema(implementation = MaintenanceReport.class)),
                @Content(
                        mediaType = NDJSON,
                        schema =
                                @Schema(
                                        type = "string",
                                        example = "{\"step\": \"packing 12 loose objects\", \"index\": 1,"
                                                + " \"of\": 2}\n"))
            })
    @ApiResponse(
            responseCode = "400",
            description = "The body is not a maintenance request; the detail names the field")
    @ApiResponse(responseCode = "403", description = "The token has no admin role")
    @ApiResponse(responseCode = "409", description = "The object store is locked by another packer; try again")
    MaintenanceReport maintain(
            @RequestBody MaintenanceRequest request,
            @Parameter(hidden = true) HttpServletRequest http,
            @Parameter(hidden = true) HttpServletResponse response)
            throws IOException {
        boolean full = Boolean.TRUE.equals(request.full());
        boolean dryRun = Boolean.TRUE.equals(request.dryRun());
        String accept = http.getHeader(HttpHeaders.ACCEPT);
        if (accept == null || !accept.contains(NDJSON)) {
            return storage.maintain(full, dryRun, StoreMaintenance.Steps.NONE);
        }
        response.setContentType(NDJSON);
        OutputStream out = response.getOutputStream();
        try {
            MaintenanceReport report = storage.maintain(full, dryRun, (what, index, of) -> {
                Map<String, Object> step = new LinkedHashMap<>();
                step.put("step", what);
                step.put("index", index);
                step.put("of", of);
                line(out, step);
            });
            line(out, Map.of("done", report));
        } catch (RuntimeException | IOException e) {
            LOG.warn("a maintenance of the object store failed: {}", e.getMessage());
            line(out, problem(e, "the maintenance failed: "));
        }
        return null;
    }

    @PostMapping(path = "/validation")
    @Operation(
            operationId = "validateStorage",
            summary = "Check the object store and that every object the graph refers to exists",
            description = "Rehashes every object, checks the pack index against the packs, and looks up every"
                    + " file of every node. Reads the whole store: minutes on a large one.")
    @ApiResponse(responseCode = "200", description = "The faults found; none when valid")
    @ApiResponse(responseCode = "403", description = "The token has no admin role")
    ValidationView validate() throws IOException {
        return storage.validate();
    }

    @PostMapping(path = "/backups", consumes = MediaType.APPLICATION_JSON_VALUE, produces = NDJSON)
    @Operation(
            operationId = "backUpStorage",
            summary = "Back up the database and the object store into a folder on the server's host",
            description = "While the server runs: the database's tables in one snapshot, then the object store"
                    + " (files unchanged since the previous backup in the folder are hard-linked). Each backup is a"
                    + " folder backup-<UTC time> beside a symlink 'last' to the newest; keep=N deletes all but the"
                    + " newest N. The answer is a line of JSON per step ({\"step\": …}) and a last line"
                    + " {\"done\": …} with the backup's path, or a problem (RFC 9457) if it failed part way.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(
                                            examples =
                                                    @ExampleObject(
                                                            value = "{\"destination\": \"/srv/backups/cairn\","
                                                                    + " \"keep\": 7}"))))
    @ApiResponse(
            responseCode = "200",
            description = "One JSON object per line: steps, then the outcome",
            content =
                    @Content(
                            mediaType = NDJSON,
                            schema = @Schema(type = "string", example = "{\"step\": \"database: table node\"}\n")))
    @ApiResponse(
            responseCode = "400",
            description = "No destination, one that is relative, not a folder, holds more than backups or has no"
                    + " parent folder, or a negative keep; the detail names the field")
    @ApiResponse(responseCode = "403", description = "The token has no admin role")
    void backup(@RequestBody BackupRequest request, @Parameter(hidden = true) HttpServletResponse response)
            throws IOException {
        Path dest = StorageService.destination(request.destination());
        int keep = request.keep() == null ? 0 : request.keep();
        if (keep < 0) {
            throw new InvalidInputException("'keep' must be 0 (keep all) or more: " + keep);
        }
        response.setContentType(NDJSON);
        OutputStream out = response.getOutputStream();
        try {
            Backups.Result result = storage.backup(dest, keep, step -> line(out, Map.of("step", step)));
            Map<String, Object> done = new LinkedHashMap<>();
            done.put("path", result.path().toString());
            done.put("schemaVersion", result.manifest().schemaVersion());
            done.put("created", result.manifest().created());
            done.put("rows", result.manifest().rows());
            done.put("filesLinked", result.objects().filesLinked());
            done.put("filesCopied", result.objects().filesCopied());
            done.put("bytesCopied", result.objects().bytesCopied());
            done.put("pruned", result.pruned());
            line(out, Map.of("done", done));
        } catch (RuntimeException e) {
            LOG.warn("a backup to {} failed: {}", dest, e.getMessage());
            line(out, problem(e, "the backup failed: "));
        }
    }

    /**
     * The last line of an answer of lines whose work failed after its status was sent: the problem (RFC 9457)
     * the failure would have been as an answer of its own.
     */
    private static Map<String, Object> problem(Exception e, String prefix) {
        Problems kind = e instanceof CairnException cairn ? Problems.of(cairn) : Problems.INTERNAL;
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", kind.type().toString());
        problem.put("title", kind.title());
        problem.put("status", kind.status().value());
        problem.put("detail", prefix + e.getMessage());
        return problem;
    }

    private static void line(OutputStream out, Map<String, ?> value) {
        try {
            out.write(JSON.writeValueAsString(value).getBytes(StandardCharsets.UTF_8));
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            LOG.debug("the client of a backup or maintenance went away: {}", e.getMessage());
        }
    }
}
