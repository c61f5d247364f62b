package dev.cairn.api.data;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Encoding;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.multipart.MultipartHttpServletRequest;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.nodes.NodeDetails;
import dev.cairn.api.nodes.NodeService;
import dev.cairn.api.security.CurrentUser;
import dev.cairn.api.web.Json;
import dev.cairn.engine.launch.JsonData;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.ArrayData;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.FolderData;
import dev.cairn.storage.graph.SinglefileData;

/**
 * New data nodes from clients, made as the request's user: values from JSON, files from uploads.
 * Everything a request says is checked before anything is stored, so a refused request leaves no
 * node and no file behind.
 */
@RestController
@RequestMapping("/api/v1/nodes")
@Tag(name = "data", description = "Making data nodes: values from JSON, files from uploads")
class DataController {

    private static final List<String> FIELDS = List.of("type", "value", "label", "description", "extras");

    private final NodeService nodes;
    private final long uploadMax;

    DataController(NodeService nodes, CairnProperties properties) {
        this.nodes = nodes;
        this.uploadMax = properties.limits().uploadMaxSize().toBytes();
    }

    /** The body's form, for the API's description. */
    @Schema(name = "NewData", description = "A data node to make")
    record NewData(
            @Schema(
                    description = "The data class",
                    allowableValues = {"int", "float", "str", "bool", "dict", "list", "structure"},
                    example = "int")
            String type,

            @Schema(
                    description = "The value, in the form a launch takes it inline: a number, string or"
                            + " boolean; an object for dict; an array for list; for structure the attributes"
                            + " cell, pbc1, pbc2, pbc3, kinds and sites",
                    example = "3")
            Object value,

            @Schema(example = "x") String label,
            @Schema(example = "the first addend") String description,
            @Schema(example = "{\"project\": \"demo\"}") Map<String, Object> extras) {}

    @PostMapping(consumes = "application/json")
    @Operation(
            operationId = "createNode",
            summary = "Make a data node from JSON",
            description = "An Int, Float, Str, Bool, Dict, List or Structure from its value, stored as the request's"
                    + " user; returns it with its uuid, to give as a process input ({\"uuid\": …}).",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(
                                            schema = @Schema(implementation = NewData.class),
                                            examples = {
                                                @ExampleObject(
                                                        name = "int",
                                                        value = "{\"type\": \"int\", \"value\": 3, \"label\": \"x\"}"),
                                                @ExampleObject(
                                                        name = "dict",
                                                        value =
                                                                "{\"type\": \"dict\", \"value\": {\"ecutwfc\": 30, \"smearing\": \"mv\"}}"),
                                                @ExampleObject(
                                                        name = "structure",
                                                        value =
                                                                "{\"type\": \"structure\", \"value\": {\"cell\": [[4,0,0],[0,4,0],[0,0,4]],"
                                                                        + " \"pbc1\": true, \"pbc2\": true, \"pbc3\": true, \"kinds\": [{\"name\":"
                                                                        + " \"Si\", \"symbols\": [\"Si\"], \"weights\": [1.0], \"mass\": 28.085}],"
                                                                        + " \"sites\": [{\"kind_name\": \"Si\", \"position\": [0, 0, 0]}]}}")
                                            })))
    @ApiResponse(responseCode = "201", description = "The node, at the Location header")
    ResponseEntity<NodeDetails> fromJson(@RequestBody JsonNode body) {
        if (!body.isObject()) {
            throw new InvalidInputException("the body must be an object with " + FIELDS + ", not " + kind(body));
        }
        for (String field : body.propertyNames()) {
            if (!FIELDS.contains(field)) {
                throw new InvalidInputException("unknown field '" + field + "'; known fields are " + FIELDS);
            }
        }
        JsonNode type = body.get("type");
        if (type == null || !type.isString()) {
            throw new InvalidInputException("field 'type' is required: a string, one of " + DataKind.names());
        }
        DataKind kind = DataKind.of(type.stringValue());
        JsonNode value = body.get("value");
        if (value == null || value.isNull()) {
            throw new InvalidInputException("field 'value' is required: the " + kind.jsonName() + "'s value");
        }
        Data node;
        try {
            node = JsonData.decode(kind.type(), value);
        } catch (InvalidInputException e) {
            throw new InvalidInputException("field 'value': " + e.getMessage().replaceFirst("^the value:? ?", ""));
        }
        node.setLabel(text(body, "label"));
        node.setDescription(text(body, "description"));
        node.setExtras(extras(body.get("extras")));
        return created(nodes.create(node, CurrentUser.id()));
    }

    private static String text(JsonNode body, String field) {
        JsonNode v = body.get(field);
        if (v == null) {
            return "";
        }
        if (!v.isString()) {
            throw new InvalidInputException("field '" + field + "': expected a string, got " + kind(v));
        }
        return v.stringValue();
    }

    private static Map<String, Object> extras(JsonNode extras) {
        if (extras == null) {
            return Map.of();
        }
        if (!extras.isObject()) {
            throw new InvalidInputException("field 'extras': expected an object, got " + kind(extras));
        }
        return Json.readObject(extras.toString());
    }

    @PostMapping(
            path = "/files",
            consumes = {"multipart/form-data", "application/octet-stream"})
    @Operation(
            operationId = "uploadFiles",
            summary = "Make a data node from uploaded files",
            description = "Multipart: one file part makes a SinglefileData, several (or `folder=true`) a FolderData"
                    + " that keeps each part's filename as its relative path (`out/a.txt`); every file part counts,"
                    + " whatever its field name. With `array=true`, an ArrayData of NumPy .npy files, each named"
                    + " <array name>.npy and checked (its header, and its size against its shape) before anything is"
                    + " stored. A raw body (application/octet-stream) is one file named by `name`,"
                    + " for scripts. Either way the bytes stream to the object store in bounded memory, whatever"
                    + " their size; an upload over cairn.limits.upload-max-size is refused with 413, and a file name"
                    + " that is absolute or has a '..', '.' or empty name with 400. Examples:"
                    + " `curl -F file=@a.txt -F 'file=@b.txt;filename=in/b.txt' …/api/v1/nodes/files`,"
                    + " `curl --data-binary @big.dat -H 'Content-Type: application/octet-stream'"
                    + " '…/api/v1/nodes/files?name=big.dat'`.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content = {
                                @Content(
                                        mediaType = "multipart/form-data",
                                        schema = @Schema(implementation = FileParts.class),
                                        encoding = @Encoding(name = "file", contentType = "application/octet-stream")),
                                @Content(
                                        mediaType = "application/octet-stream",
                                        schema = @Schema(type = "string", format = "binary"))
                            }))
    @ApiResponse(responseCode = "201", description = "The node, at the Location header")
    @ApiResponse(
            responseCode = "413",
            description = "The upload is larger than cairn.limits.upload-max-size",
            content = @Content(mediaType = "application/problem+json"))
    ResponseEntity<NodeDetails> fromFiles(
            @Parameter(
                            description = "A raw body's file name (required with application/octet-stream)",
                            example = "big.dat")
                    @RequestParam(name = "name", required = false)
                    String name,
            @Parameter(description = "The node's label", example = "inputs")
                    @RequestParam(name = "label", defaultValue = "")
                    String label,
            @Parameter(description = "The node's description") @RequestParam(name = "description", defaultValue = "")
                    String description,
            @Parameter(description = "Make a FolderData even of one file")
                    @RequestParam(name = "folder", defaultValue = "false")
                    boolean folder,
            @Parameter(
                            description = "Make an ArrayData: each part a NumPy .npy file (float64 or int64, as"
                                    + " numpy.save writes it) whose filename is <array name>.npy; or a raw body of"
                                    + " one, named by 'name'")
                    @RequestParam(name = "array", defaultValue = "false")
                    boolean array,
            @Parameter(hidden = true) HttpServletRequest request)
            throws IOException {
        if (array && folder) {
            throw new InvalidInputException(
                    "array=true and folder=true exclude each other: a node is one or the" + " other");
        }
        try (OpenedStreams opened = new OpenedStreams()) {
            Data node;
            if (array) {
                node = request instanceof MultipartHttpServletRequest parts
                        ? arrays(parts, opened)
                        : arrayFromBody(request, name, opened);
            } else {
                node = request instanceof MultipartHttpServletRequest parts
                        ? fromParts(parts, folder, opened)
                        : fromBody(request, name, folder, opened);
            }
            return stored(node, label, description);
        }
    }

    /** The multipart form, for the API's description. */
    @Schema(name = "FileParts", description = "Files as multipart parts; each part's filename is its path")
    record FileParts(
            @Schema(type = "string", format = "binary", description = "a file; repeat the part for more")
            String file) {}

    /** An unstored node of the parts' files, their streams kept in {@code opened} for the caller to close. */
    private static Data fromParts(MultipartHttpServletRequest request, boolean folder, OpenedStreams opened) {
        List<MultipartFile> parts = new ArrayList<>();
        request.getMultiFileMap().values().forEach(parts::addAll);
        if (parts.isEmpty()) {
            throw new InvalidInputException("the upload has no file part; send files as multipart parts with a"
                    + " filename (curl -F file=@a.txt)");
        }
        Set<String> names = new HashSet<>();
        for (MultipartFile part : parts) {
            String name = FileNames.check(part.getOriginalFilename());
            if (!names.add(name)) {
                throw new InvalidInputException("file name '" + name + "' comes twice in the upload");
            }
        }
        if (parts.size() == 1 && !folder) {
            MultipartFile part = parts.getFirst();
            return new SinglefileData(baseName(part.getOriginalFilename()), opened.open(part));
        }
        FolderData data = new FolderData();
        for (MultipartFile part : parts) {
            data.files().put(part.getOriginalFilename(), opened.open(part));
        }
        return data;
    }

    /** An unstored ArrayData of the parts' .npy files, each checked before anything is stored. */
    private static ArrayData arrays(MultipartHttpServletRequest parts, OpenedStreams opened) {
        Map<String, MultipartFile> files = new TreeMap<>();
        parts.getMultiFileMap()
                .values()
                .forEach(list -> list.forEach(part -> {
                    if (files.putIfAbsent(part.getOriginalFilename(), part) != null) {
                        throw new InvalidInputException(
                                "file name '" + part.getOriginalFilename() + "' comes twice in the upload");
                    }
                }));
        List<String> problems = new ArrayList<>();
        ArrayData arrays = NpyFiles.arrays("the upload", files, opened::open, problems);
        if (!problems.isEmpty()) {
            throw new InvalidInputException(String.join("; ", problems));
        }
        return arrays;
    }

    /** An unstored ArrayData of the one array the raw body is the .npy file of, checked as it is read. */
    private ArrayData arrayFromBody(HttpServletRequest request, String name, OpenedStreams opened) throws IOException {
        if (name == null) {
            throw new InvalidInputException("the query parameter 'name' is required with a raw body: the array's"
                    + " file name (?array=true&name=energies.npy)");
        }
        return NpyFiles.array(name, limitedBody(request, opened), request.getContentLengthLong());
    }

    /** The raw body, read up to the upload limit: one declared longer is refused before it is read. */
    private InputStream limitedBody(HttpServletRequest request, OpenedStreams opened) throws IOException {
        if (request.getContentLengthLong() > uploadMax) {
            throw new MaxUploadSizeExceededException(uploadMax);
        }
        return opened.add(new LimitedInputStream(request.getInputStream(), uploadMax));
    }

    /** An unstored node of the raw body, which is read up to the upload limit as the node is stored. */
    private Data fromBody(HttpServletRequest request, String name, boolean folder, OpenedStreams opened)
            throws IOException {
        if (name == null) {
            throw new InvalidInputException(
                    "the query parameter 'name' is required with a raw body: the file's name (?name=data.bin)");
        }
        String file = FileNames.check(name);
        if (!folder && file.contains("/")) {
            throw new InvalidInputException("file name '" + file + "': a SinglefileData's name is one name, not a"
                    + " path; add folder=true for a FolderData");
        }
        InputStream in = limitedBody(request, opened);
        if (!folder) {
            return new SinglefileData(file, in);
        }
        FolderData data = new FolderData();
        data.files().put(file, in);
        return data;
    }

    private ResponseEntity<NodeDetails> stored(Data node, String label, String description) {
        node.setLabel(label);
        node.setDescription(description);
        return created(nodes.create(node, CurrentUser.id()));
    }

    private static ResponseEntity<NodeDetails> created(NodeDetails node) {
        return ResponseEntity.created(URI.create("/api/v1/nodes/" + node.uuid()))
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .body(node);
    }

    private static String kind(JsonNode json) {
        return json.getNodeType().name().toLowerCase(Locale.ROOT);
    }

    private static String baseName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
