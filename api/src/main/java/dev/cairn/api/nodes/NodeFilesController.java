package dev.cairn.api.nodes;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

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
import dev.cairn.engine.Engine;
import dev.cairn.errors.InvalidInputException;
import dev.cairn.errors.NotFoundException;
import dev.cairn.storage.graph.NodeFiles;
import dev.cairn.storage.graph.ObjectStoreErrors;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ObjectKey;
import dev.cairn.storage.objects.ObjectMeta;

/** A node's files: listed, one downloaded (with ranges), a folder as a zip stream. */
@RestController
@RequestMapping("/api/v1/nodes/{ref}")
@Tag(name = "nodes")
class NodeFilesController {

    private final NodeReader reader;
    private final Engine engine;

    NodeFilesController(NodeReader reader, Engine engine) {
        this.reader = reader;
        this.engine = engine;
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
        NodeReader.FileTree tree = reader.files(ref);
        String dir = folder(tree, path);
        NodeFiles files = tree.files();
        List<String> paths = new ArrayList<>();
        if (recursive) {
            for (String p : files.keys().keySet()) {
                if (dir.isEmpty() || p.startsWith(dir + "/")) {
                    paths.add(p);
                }
            }
        } else {
            for (String name : files.isEmpty() ? List.<String>of() : files.list(dir)) {
                paths.add(dir.isEmpty() ? name : dir + "/" + name);
            }
        }
        List<ObjectKey> keys = paths.stream()
                .map(p -> files.key(p).orElse(null))
                .filter(k -> k != null)
                .toList();
        Map<ObjectKey, ObjectMeta> metas = metas(keys);
        List<FileListing.Entry> entries = new ArrayList<>(paths.size());
        for (String p : paths) {
            String name = p.substring(p.lastIndexOf('/') + 1);
            ObjectKey key = files.key(p).orElse(null);
            if (key == null) {
                entries.add(new FileListing.Entry(name, p, "directory", null, null));
            } else {
                ObjectMeta meta = metas.get(key);
                entries.add(new FileListing.Entry(name, p, "file", meta == null ? null : meta.size(), key.hex()));
            }
        }
        return new FileListing(tree.uuid().toString(), dir, entries);
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
        if (file.isEmpty()) {
            throw new InvalidInputException(
                    "name a file after /files/; GET /api/v1/nodes/" + ref + "/files lists the node's files");
        }
        NodeReader.FileTree tree = reader.files(ref);
        ObjectKey key = tree.files().key(file).orElse(null);
        if (key == null) {
            if (tree.files().exists(file)) {
                throw new InvalidInputException("'" + file + "' is a folder of node " + tree.uuid()
                        + ": list it (files?path=" + file + ") or download it as a zip (archive?path=" + file + ")");
            }
            throw new NotFoundException("node " + tree.uuid() + " has no file '" + file + "'");
        }
        Container objects = engine.graph().objectStore();
        long size;
        try {
            size = objects.meta(key).size();
        } catch (IOException e) {
            throw ObjectStoreErrors.translate(e, "reading '" + file + "' of node " + tree.uuid());
        }
        FileDownload.send(objects, key, size, file.substring(file.lastIndexOf('/') + 1), request, response);
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
        NodeReader.FileTree tree = reader.files(ref);
        String dir = folder(tree, path);
        String name = tree.uuid() + (dir.isEmpty() ? "" : "-" + dir.replace('/', '-')) + ".zip";
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
        Container objects = engine.graph().objectStore();
        StreamedResponse.write(response, () -> {
            try (ZipOutputStream zip =
                    new ZipOutputStream(new BufferedOutputStream(response.getOutputStream(), FileDownload.BLOCK))) {
                // node files are mostly text; the fastest level keeps the stream near disk speed
                zip.setLevel(Deflater.BEST_SPEED);
                if (!tree.files().isEmpty()) {
                    zipFolder(zip, objects, tree.files(), dir, dir);
                }
            }
        });
    }

    private static void zipFolder(ZipOutputStream zip, Container objects, NodeFiles files, String base, String dir)
            throws IOException {
        List<String> names = files.list(dir);
        String relative = dir.equals(base) ? "" : dir.substring(base.isEmpty() ? 0 : base.length() + 1) + "/";
        if (names.isEmpty() && !relative.isEmpty()) {
            zip.putNextEntry(new ZipEntry(relative));
            zip.closeEntry();
        }
        for (String name : names) {
            String child = dir.isEmpty() ? name : dir + "/" + name;
            ObjectKey key = files.key(child).orElse(null);
            if (key == null) {
                zipFolder(zip, objects, files, base, child);
                continue;
            }
            zip.putNextEntry(new ZipEntry(relative + name));
            try (InputStream in = objects.open(key)) {
                in.transferTo(zip);
            }
            zip.closeEntry();
        }
    }

    /** A folder of the node's files, checked: "" is the top. */
    private static String folder(NodeReader.FileTree tree, String path) {
        String dir = path.strip();
        while (dir.endsWith("/")) {
            dir = dir.substring(0, dir.length() - 1);
        }
        if (dir.isEmpty()) {
            return "";
        }
        if (!tree.files().exists(dir)) {
            throw new NotFoundException("node " + tree.uuid() + " has no folder '" + dir + "'");
        }
        if (tree.files().key(dir).isPresent()) {
            throw new InvalidInputException(
                    "'" + dir + "' is a file of node " + tree.uuid() + ", not a folder: download it at files/" + dir);
        }
        return dir;
    }

    private Map<ObjectKey, ObjectMeta> metas(List<ObjectKey> keys) {
        if (keys.isEmpty()) {
            return Map.of();
        }
        try {
            return engine.graph().objectStore().metas(keys);
        } catch (IOException e) {
            throw ObjectStoreErrors.translate(e, "reading the sizes of node files");
        }
    }
}
