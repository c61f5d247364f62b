package dev.cairn.api.nodes;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.cairn.api.web.StreamedResponse;

/** A node's files: listed, one downloaded (with ranges), a folder as a zip stream. */
@RestController
@RequestMapping("/api/v1/nodes/{ref}")
@Tag(name = "nodes")
class NodeFilesController {

    private final NodeFileService files;

    NodeFilesController(NodeFileService files) {
        this.files = files;
    }

    @GetMapping("/files")
    @Operation(
            operationId = "listNodeFiles",
            summary = "List a node's files",
            description = "The files and folders in one folder of the node's files (the top by default), with each"
                    + " file's size and object key; with `recursive`, every file below the folder."
                    + " Example: `GET /api/v1/nodes/0190c1a2/files?path=out`.")
    @ApiResponse(responseCode = "200", description = "The folder's entries")
    @ApiResponse(
            responseCode = "404",
            description = "The node has no such folder",
            content = @Content(mediaType = "application/problem+json"))
    FileListing list(
            @Parameter(description = NodesController.REF, example = "0190c1a2") @PathVariable("ref") String ref,
            @Parameter(description = "The folder, '/'-separated; the top when left out", example = "out")
                    @RequestParam(name = "path", defaultValue = "")
                    String path,
            @Parameter(description = "Every file below the folder instead of its entries")
                    @RequestParam(name = "recursive", defaultValue = "false")
                    boolean recursive) {
        return files.listing(ref, path, recursive);
    }

    @GetMapping("/files/{*path}")
    @Operation(
            operationId = "downloadNodeFile",
            summary = "Download one of a node's files",
            description = "The file's bytes, streamed. `ETag` is the file's object key (the SHA-256 of its content):"
                    + " `If-None-Match` with it answers 304. One `Range` (`bytes=0-1023`, `bytes=-1024`) answers 206,"
                    + " a range beyond the end 416; several ranges are answered with the whole file."
                    + " Example: `curl -H 'Range: bytes=0-99' …/api/v1/nodes/0190c1a2/files/out/aiida.out`.")
    @ApiResponse(
            responseCode = "200",
            description = "The whole file",
            content =
                    @Content(
                            mediaType = "application/octet-stream",
                            schema = @Schema(type = "string", format = "binary")))
    @ApiResponse(responseCode = "206", description = "The range asked for, with Content-Range")
    @ApiResponse(responseCode = "304", description = "The client's copy (If-None-Match) is current")
    @ApiResponse(responseCode = "416", description = "The range starts beyond the end of the file")
    void download(
            @Parameter(description = NodesController.REF, example = "0190c1a2") @PathVariable("ref") String ref,
            @Parameter(description = "The file's path among the node's files", example = "out/aiida.out")
                    @PathVariable("path")
                    String path,
            @Parameter(hidden = true) HttpServletRequest request,
            @Parameter(hidden = true) HttpServletResponse response)
            throws IOException {
        String file = path.startsWith("/") ? path.substring(1) : path;
        FileDownload.send(files.file(ref, file), request, response);
    }

    @GetMapping("/archive")
    @Operation(
            operationId = "downloadNodeFolder",
            summary = "Download a folder of a node's files as a zip",
            description = "Every file and folder under `path` (all the node's files by default) as a zip archive,"
                    + " written as it is read: nothing is staged on the server."
                    + " Example: `curl -o out.zip …/api/v1/nodes/0190c1a2/archive?path=out`.")
    @ApiResponse(
            responseCode = "200",
            description = "The zip archive",
            content = @Content(mediaType = "application/zip", schema = @Schema(type = "string", format = "binary")))
    void archive(
            @Parameter(description = NodesController.REF, example = "0190c1a2") @PathVariable("ref") String ref,
            @Parameter(description = "The folder; the node's whole file tree when left out", example = "out")
                    @RequestParam(name = "path", defaultValue = "")
                    String path,
            @Parameter(hidden = true) HttpServletRequest request,
            @Parameter(hidden = true) HttpServletResponse response)
            throws IOException {
        NodeFolder folder = files.folder(ref, path);
        String name = folder.zipName();
        response.setContentType("application/zip");
        response.setHeader(
                HttpHeaders.CONTENT_DISPOSITION,
                ContentDisposition.attachment()
                        .filename(name, StandardCharsets.UTF_8)
                        .build()
                        .toString());
        if ("HEAD".equals(request.getMethod())) {
            return;
        }
        StreamedResponse.write(
                response,
                () -> folder.writeZip(new BufferedOutputStream(response.getOutputStream(), FileDownload.BLOCK)));
    }
}
