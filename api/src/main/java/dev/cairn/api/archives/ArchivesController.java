package dev.cairn.api.archives;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.CacheControl;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.api.archives.ArchiveViews.HeaderView;
import dev.cairn.api.archives.ArchiveViews.ImportView;
import dev.cairn.api.archives.ArchiveViews.InspectionView;
import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.security.CurrentUser;
import dev.cairn.api.web.Problems;
import dev.cairn.api.web.StreamedResponse;
import dev.cairn.storage.archive.ArchiveFormat;
import dev.cairn.storage.archive.ArchiveProgress;
import dev.cairn.storage.archive.ImportOptions;
import dev.cairn.storage.errors.CairnException;

/** Archives: an export streamed as the response, an import or an inspection of an upload streamed as it comes. */
@RestController
@RequestMapping("/api/v1/archive")
@Tag(
        name = "archives",
        description = "Provenance moved between installations as archive files (docs/archive-format.md): export a"
                + " piece of the graph or all of it (role read), import an archive (role admin), or verify one"
                + " without importing it (role read)")
class ArchivesController {

    static final String ARCHIVE = MediaType.APPLICATION_OCTET_STREAM_VALUE;
    private static final Logger LOG = LoggerFactory.getLogger(ArchivesController.class);
    private static final DateTimeFormatter FILE_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");
    private static final String REFS = " (repeatable; any mix of group, node, computer and code)";

    private final ArchiveService archives;
    private final Path spool;
    private final JsonMapper json;

    ArchivesController(ArchiveService archives, CairnProperties properties, JsonMapper json) {
        this.archives = archives;
        this.json = json;
        this.spool = properties.dataDir().resolve("tmp");
    }

    @GetMapping(produces = {ARCHIVE, MediaType.APPLICATION_JSON_VALUE})
    @Operation(
            operationId = "exportArchive",
            summary = "Export a piece of the graph, or all of it, as an archive file",
            description = "The starting set (groups' members, nodes, the nodes run on computers, codes) closed under"
                    + " the EXPORT traversal rules, with the groups, computers, users, comments and logs they need,"
                    + " and the contents of the nodes' files; or, with all=true, everything. The export is counted"
                    + " first, so an unknown name (400) or a process that has not ended (409) is answered as a"
                    + " problem; then the archive is written from one snapshot as the response body, never held in"
                    + " memory (Content-Disposition: attachment; a format that must be written as a file is written"
                    + " to the server's data directory first). With dry_run=true the answer is the header the"
                    + " archive would have, its counts, as JSON."
                    + " Example: `curl -OJ -H \"Authorization: Bearer $TOKEN\" '…/api/v1/archive?group=relaxations'`.")
    @ApiResponse(
            responseCode = "200",
            description = "The archive (application/octet-stream), or with dry_run=true what it would hold (JSON)",
            content = {
                @Content(mediaType = ARCHIVE, schema = @Schema(type = "string", format = "binary")),
                @Content(
                        mediaType = MediaType.APPLICATION_JSON_VALUE,
                        schema = @Schema(implementation = HeaderView.class))
            })
    @ApiResponse(
            responseCode = "400",
            description = "Nothing named (and not all=true), a name that names nothing, a rule that cannot be switched,"
                    + " an unknown format",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(
            responseCode = "409",
            description = "A process of the export has not ended (an archive holds finished provenance only), or a"
                    + " prefix or label names more than one",
            content = @Content(mediaType = "application/problem+json"))
    ResponseEntity<HeaderView> export(
            @Parameter(description = "Export everything; then name nothing else")
                    @RequestParam(name = "all", defaultValue = "false")
                    boolean all,
            @Parameter(
                            description = "A group, by label or uuid: its members are exported, and the group" + REFS,
                            array = @ArraySchema(schema = @Schema(type = "string", example = "relaxations")))
                    @RequestParam(name = "group", required = false)
                    List<String> groups,
            @Parameter(
                            description = "A node, by PK (42, pk:42), uuid or a unique uuid prefix" + REFS,
                            array = @ArraySchema(schema = @Schema(type = "string", example = "0190c1a2")))
                    @RequestParam(name = "node", required = false)
                    List<String> nodes,
            @Parameter(
                            description = "A computer, by label or uuid: the nodes run on it are exported" + REFS,
                            array = @ArraySchema(schema = @Schema(type = "string", example = "localhost")))
                    @RequestParam(name = "computer", required = false)
                    List<String> computers,
            @Parameter(
                            description = "A code, by label@computer, label or uuid" + REFS,
                            array = @ArraySchema(schema = @Schema(type = "string", example = "bash@localhost")))
                    @RequestParam(name = "code", required = false)
                    List<String> codes,
            @Parameter(description = "Include the nodes' comments")
                    @RequestParam(name = "comments", defaultValue = "true")
                    boolean comments,
            @Parameter(description = "Include the nodes' logs") @RequestParam(name = "logs", defaultValue = "true")
                    boolean logs,
            @Parameter(description = "Include the computers' authinfos (transport settings per user)")
                    @RequestParam(name = "authinfos", defaultValue = "false")
                    boolean authinfos,
            @Parameter(
                            description = "Traversal rules of the EXPORT rules to switch on (repeatable):"
                                    + " input_calc_forward, input_work_forward, return_backward (off by default)",
                            array = @ArraySchema(schema = @Schema(type = "string", example = "input_calc_forward")))
                    @RequestParam(name = "enable", required = false)
                    List<String> enable,
            @Parameter(
                            description =
                                    "Traversal rules of the EXPORT rules to switch off (repeatable): create_backward,"
                                            + " call_calc_backward, call_work_backward (on by default); the others are fixed",
                            array = @ArraySchema(schema = @Schema(type = "string", example = "create_backward")))
                    @RequestParam(name = "disable", required = false)
                    List<String> disable,
            @Parameter(description = "The archive's format", schema = @Schema(allowableValues = {"cairn", "aiida"}))
                    @RequestParam(name = "format", defaultValue = "cairn")
                    String formatName,
            @Parameter(description = "Only count what the archive would hold; answer its header as JSON")
                    @RequestParam(name = "dry_run", defaultValue = "false")
                    boolean dryRun,
            @Parameter(hidden = true) HttpServletRequest http,
            @Parameter(hidden = true) HttpServletResponse response)
            throws IOException {
        ArchiveFormat format = ArchiveFormat.of(formatName);
        PreparedExport export = archives.export(new ExportRequests.Selection(
                all,
                orEmpty(groups),
                orEmpty(nodes),
                orEmpty(computers),
                orEmpty(codes),
                orEmpty(enable),
                orEmpty(disable),
                comments,
                logs,
                authinfos));
        // counted first: what would fail the export fails here, while a problem can still be answered
        if (dryRun) {
            return ResponseEntity.ok()
                    .contentType(MediaType.APPLICATION_JSON)
                    .cacheControl(CacheControl.noStore())
                    .body(HeaderView.of(format, export.counted()));
        }
        response.setContentType(ARCHIVE);
        response.setHeader(HttpHeaders.CACHE_CONTROL, CacheControl.noStore().getHeaderValue());
        response.setHeader(
                HttpHeaders.CONTENT_DISPOSITION,
                ContentDisposition.attachment()
                        .filename(fileName(format, all))
                        .build()
                        .toString());
        if ("HEAD".equals(http.getMethod())) {
            return null;
        }
        StreamedResponse.write(
                response,
                () -> export.write(format, response.getOutputStream(), spool, response::setContentLengthLong));
        return null;
    }

    @PostMapping(consumes = ARCHIVE)
    @Operation(
            operationId = "importArchive",
            summary = "Import an archive",
            description = "The body is the archive file, read as it arrives (a format that must be read from a file is"
                    + " spooled to the server's data directory first); its format is told by its first bytes. The"
                    + " import is all or nothing: an archive that is truncated, corrupt or breaks the graph's rules is"
                    + " a 400 naming the part and row, and nothing of it is imported. Identity is the uuid, so an"
                    + " archive imported twice adds nothing the second time. The new nodes go into a group of type"
                    + " core.import. No upload size limit applies: archives can be many GB."
                    + " With `Accept: application/x-ndjson` the answer is a line of JSON per piece of progress"
                    + " ({\"part\": \"nodes\", \"done\": …, \"total\": …} as rows are read, {\"step\": …, \"millis\": …}"
                    + " as the work after the rows goes on), then a last line {\"done\": …} with what was added, or"
                    + " a problem (RFC 9457) saying why nothing was."
                    + " Example: `curl --data-binary @export.cairn -H 'Content-Type: application/octet-stream'"
                    + " -H \"Authorization: Bearer $TOKEN\" …/api/v1/archive`.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(
                                            mediaType = ARCHIVE,
                                            schema = @Schema(type = "string", format = "binary"))))
    @ApiResponse(
            responseCode = "200",
            description = "What was added, per part; or, asked for as NDJSON, the progress and then that",
            content = {
                @Content(
                        mediaType = MediaType.APPLICATION_JSON_VALUE,
                        schema = @Schema(implementation = ImportView.class)),
                @Content(
                        mediaType = ImportProgressLines.NDJSON,
                        schema =
                                @Schema(
                                        type = "string",
                                        example = "{\"part\": \"nodes\", \"done\": 0, \"total\": 109}\n"))
            })
    @ApiResponse(
            responseCode = "400",
            description = "Not an archive, a bad one (the detail names the part and row), or a bad option; nothing was"
                    + " imported",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(
            responseCode = "403",
            description = "The token has no admin role",
            content = @Content(mediaType = "application/problem+json"))
    ImportView importArchive(
            @Parameter(
                            description = "How extras of nodes already here merge: three letters, keys only here"
                                    + " k(eep)/n(one), keys only in the archive c(reate)/n(one), keys in both"
                                    + " l(eave)/u(pdate)/d(elete)",
                            schema = @Schema(pattern = ImportOptions.MERGE_EXTRAS_PATTERN, example = "kcl"))
                    @RequestParam(name = "merge_extras", defaultValue = "kcl")
                    String mergeExtras,
            @Parameter(
                            description = "What a comment already here becomes when the archive has it too",
                            schema = @Schema(allowableValues = {"leave", "newest", "overwrite"}))
                    @RequestParam(name = "merge_comments", defaultValue = "leave")
                    String mergeComments,
            @Parameter(
                            description = "The label of the group the new nodes go into; import-<UTC time> when left"
                                    + " out",
                            example = "from-the-lab")
                    @RequestParam(name = "group_label", required = false)
                    String groupLabel,
            @Parameter(hidden = true) HttpServletRequest request,
            @Parameter(hidden = true) HttpServletResponse response)
            throws IOException {
        InputStream body = request.getInputStream();
        try {
            ImportOptions options = ImportOptions.defaults()
                    .withMergeExtras(mergeExtras)
                    .withComments(ImportOptions.CommentMerge.parse(mergeComments))
                    .withGroupLabel(groupLabel);
            try (ArchiveUpload upload = ArchiveUpload.open(body, spool)) {
                if (!asksForLines(request)) {
                    return archives.importFrom(upload, options, ArchiveProgress.NONE, CurrentUser.id());
                }
                response.setContentType(ImportProgressLines.NDJSON);
                ImportProgressLines lines = new ImportProgressLines(response.getOutputStream(), json);
                try {
                    lines.done(archives.importFrom(upload, options, lines, CurrentUser.id()));
                } catch (CairnException e) {
                    LOG.info("an import failed, nothing of it imported: {}", e.getMessage());
                    lines.failed(Problems.of(e).with(e.getMessage()));
                }
                return null;
            }
        } catch (IOException | RuntimeException e) {
            ArchiveUpload.drain(body);
            throw e;
        }
    }

    @PostMapping(path = "/inspection", consumes = ARCHIVE)
    @Operation(
            operationId = "inspectArchive",
            summary = "Verify an archive without importing it",
            description = "Reads the uploaded archive to its end as an import would, checking every frame, count and"
                    + " checksum and every object's bytes against its key, and imports nothing. Answers the header"
                    + " and each part's rows and bytes as read; a bad archive is a 400 naming what is wrong."
                    + " Example: `curl --data-binary @export.cairn -H 'Content-Type: application/octet-stream'"
                    + " -H \"Authorization: Bearer $TOKEN\" …/api/v1/archive/inspection`.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(
                                            mediaType = ARCHIVE,
                                            schema = @Schema(type = "string", format = "binary"))))
    @ApiResponse(responseCode = "200", description = "The header and the parts as read: the archive is sound")
    @ApiResponse(
            responseCode = "400",
            description = "Not an archive, or a bad one: the detail names the part and what is wrong",
            content = @Content(mediaType = "application/problem+json"))
    InspectionView inspect(@Parameter(hidden = true) HttpServletRequest request) throws IOException {
        InputStream body = request.getInputStream();
        try (ArchiveUpload upload = ArchiveUpload.open(body, spool)) {
            return new InspectionView(
                    HeaderView.of(upload.format(), upload.reader().header()),
                    ArchiveViews.byPart(Inspection.readThrough(upload.reader())));
        } catch (IOException | RuntimeException e) {
            ArchiveUpload.drain(body);
            throw e;
        }
    }

    private static boolean asksForLines(HttpServletRequest request) {
        String accept = request.getHeader(HttpHeaders.ACCEPT);
        return accept != null && accept.contains(ImportProgressLines.NDJSON);
    }

    private static String fileName(ArchiveFormat format, boolean all) {
        return "cairn-" + (all ? "all" : "export") + "-" + FILE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC))
                + format.extension();
    }

    private static List<String> orEmpty(List<String> values) {
        return values == null ? List.of() : values;
    }
}
