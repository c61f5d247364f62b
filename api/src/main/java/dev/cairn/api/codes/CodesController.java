package dev.cairn.api.codes;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;

import dev.cairn.api.computers.ComputerRefs;
import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.security.CurrentUser;
import dev.cairn.api.web.Cursor;
import dev.cairn.api.web.Page;
import dev.cairn.engine.Engine;
import dev.cairn.engine.plugin.UnknownProcessTypeException;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.errors.ConflictException;
import dev.cairn.errors.InvalidInputException;
import dev.cairn.storage.graph.Code;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.PortableCode;
import dev.cairn.storage.graph.computers.Computer;

/** The executables calculation jobs run: installed codes (JSON) and portable ones (uploaded files). */
@RestController
@RequestMapping("/api/v1/codes")
@Tag(
        name = "codes",
        description = "Executables calculation jobs run: installed on a computer, or portable (files uploaded with"
                + " each job). Reading needs the role read, the rest admin")
class CodesController {

    private static final Logger LOG = LoggerFactory.getLogger(CodesController.class);
    private static final String REF =
            "the code's uuid (or a unique prefix of it), label@computer, or a label only" + " one code has";
    private static final String ORDER = "id";
    /*
     * Both ways to POST a code describe the one request body of POST /api/v1/codes, since the
     * OpenAPI document has one operation per path and method: JSON for an installed code,
     * multipart for a portable one.
     */
    private static final String INSTALLED_EXAMPLE = """
            {"label": "bash", "computer": "localhost", "executable": "/bin/bash",
             "description": "bash, for arithmetic.add", "defaultCalcJobPlugin": "arithmetic.add"}""";
    private static final int DEFAULT_LIMIT = 100;

    private final Engine engine;
    private final StoredCodes codes;
    private final ComputerRefs computers;
    private final CairnProperties properties;

    CodesController(Engine engine, StoredCodes codes, ComputerRefs computers, CairnProperties properties) {
        this.engine = engine;
        this.codes = codes;
        this.computers = computers;
        this.properties = properties;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(
            operationId = "createCode",
            summary = "Store an installed code",
            description = "An executable at an absolute path on a computer. The label is unique on its computer and"
                    + " may not contain '@' (codes are named label@computer). An unknown computer or calculation"
                    + " job is a 400 naming the known ones, and nothing is stored.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content = {
                                @Content(
                                        mediaType = MediaType.APPLICATION_JSON_VALUE,
                                        schema = @Schema(implementation = NewInstalledCode.class),
                                        examples = @ExampleObject(name = "installed", value = INSTALLED_EXAMPLE)),
                                @Content(
                                        mediaType = MediaType.MULTIPART_FORM_DATA_VALUE,
                                        schema = @Schema(implementation = PortableCodeForm.class))
                            }),
            responses = {
                @ApiResponse(responseCode = "201", description = "the code, stored"),
                @ApiResponse(responseCode = "409", description = "a code on that computer has the label already")
            })
    ResponseEntity<CodeView> createInstalled(@RequestBody NewInstalledCode body) {
        String label = label(body.label());
        if (body.executable() == null) {
            throw new InvalidInputException("field 'executable' is required: the executable's absolute path");
        }
        Computer computer = computers.inBody("computer", body.computer());
        if (codes.labelTaken(label, computer.id())) {
            throw new ConflictException("computer '" + computer.label() + "' has a code labelled '" + label
                    + "' already (" + label + "@" + computer.label() + ")");
        }
        InstalledCode code = new InstalledCode(computer.id(), body.executable());
        describe(
                code,
                label,
                body.description(),
                body.defaultCalcJobPlugin(),
                body.prependText(),
                body.appendText(),
                body.withMpi());
        return created(engine.graph().forUser(CurrentUser.id()).store(code));
    }

    @PostMapping(consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    @Operation(
            operationId = "createCode",
            summary = "Store a portable code",
            description = "A code whose files are uploaded with every job, to whichever computer the launch names."
                    + " The parts 'files' carry the files, each named by its path in the code (a file name, or a"
                    + " relative path such as bin/run.sh: curl -F 'files=@run.sh;filename=bin/run.sh'); the"
                    + " executable is one of them. The label is unique among portable codes.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content = {
                                @Content(
                                        mediaType = MediaType.APPLICATION_JSON_VALUE,
                                        schema = @Schema(implementation = NewInstalledCode.class),
                                        examples = @ExampleObject(name = "installed", value = INSTALLED_EXAMPLE)),
                                @Content(
                                        mediaType = MediaType.MULTIPART_FORM_DATA_VALUE,
                                        schema = @Schema(implementation = PortableCodeForm.class))
                            }),
            responses = {
                @ApiResponse(responseCode = "201", description = "the code, stored with its files"),
                @ApiResponse(responseCode = "409", description = "a portable code has the label already")
            })
    ResponseEntity<CodeView> createPortable(
            @Parameter(hidden = true) @RequestPart("files") List<MultipartFile> files,
            @Parameter(hidden = true) @RequestParam("label") String label,
            @Parameter(hidden = true) @RequestParam("executable") String executable,
            @Parameter(hidden = true) @RequestParam(name = "description", required = false) String description,
            @Parameter(hidden = true) @RequestParam(name = "defaultCalcJobPlugin", required = false)
                    String defaultCalcJobPlugin,
            @Parameter(hidden = true) @RequestParam(name = "prependText", required = false) String prependText,
            @Parameter(hidden = true) @RequestParam(name = "appendText", required = false) String appendText,
            @Parameter(hidden = true) @RequestParam(name = "withMpi", required = false) Boolean withMpi)
            throws IOException {
        String name = label(label);
        if (codes.labelTaken(name, null)) {
            throw new ConflictException("a portable code is labelled '" + name + "' already");
        }
        Path folder = Files.createTempDirectory("cairn-code-");
        try {
            writeFiles(files, folder);
            PortableCode code = new PortableCode(folder, executable);
            describe(code, name, description, defaultCalcJobPlugin, prependText, appendText, withMpi);
            return created(engine.graph().forUser(CurrentUser.id()).store(code));
        } finally {
            deleteTree(folder);
        }
    }

    @GetMapping
    @Operation(
            operationId = "listCodes",
            summary = "List the codes",
            description = "The codes, oldest first, a page at a time: pass the page's 'next' as 'cursor' for the one"
                    + " after it.")
    Page<CodeView> list(
            @Parameter(description = "only the codes installed on this computer (label or uuid)", example = "cluster")
                    @RequestParam(name = "computer", required = false)
                    String computer,
            @Parameter(description = "the most codes on one page (up to cairn.limits.page-max)", example = "100")
                    @RequestParam(name = "limit", defaultValue = "" + DEFAULT_LIMIT)
                    int limit,
            @Parameter(description = "the 'next' of the page before") @RequestParam(name = "cursor", required = false)
                    String cursor) {
        int max = properties.limits().pageMax();
        if (limit < 1 || limit > max) {
            throw new InvalidInputException("limit must be from 1 to " + max + ", not " + limit);
        }
        long after = cursor == null
                ? 0
                : ((Number) Cursor.decode(cursor, ORDER).after().getFirst()).longValue();
        Long computerId =
                computer == null ? null : computers.inBody("computer", computer).id();
        List<Code> page = codes.page(computerId, after, limit + 1);
        boolean more = page.size() > limit;
        List<Code> items = more ? page.subList(0, limit) : page;
        String next = more ? new Cursor(ORDER, List.of(items.getLast().id())).encode() : null;
        return new Page<>(items.stream().map(codes::view).toList(), next, null);
    }

    @GetMapping("/{code}")
    @Operation(operationId = "showCode", summary = "Show a code")
    CodeView show(@Parameter(description = REF, example = "bash@localhost") @PathVariable("code") String ref) {
        return codes.view(codes.find(ref));
    }

    @DeleteMapping("/{code}")
    @Operation(
            operationId = "deleteCode",
            summary = "Delete a code",
            description = "Deletes a code that no process has used; one that was used is part of their provenance.",
            responses = {
                @ApiResponse(responseCode = "204", description = "deleted"),
                @ApiResponse(responseCode = "409", description = "a process used the code")
            })
    ResponseEntity<Void> delete(
            @Parameter(description = REF, example = "bash@localhost") @PathVariable("code") String ref) {
        codes.delete(codes.find(ref));
        return ResponseEntity.noContent().build();
    }

    private ResponseEntity<CodeView> created(Code code) {
        return ResponseEntity.created(URI.create("/api/v1/codes/" + code.uuid()))
                .body(codes.view(code));
    }

    private static String label(String label) {
        if (label == null || label.isBlank()) {
            throw new InvalidInputException("field 'label' is required: the code's name");
        }
        if (label.contains("@")) {
            throw new InvalidInputException(
                    "a code's label may not contain '@' (codes are named label@computer): '" + label + "'");
        }
        return label.strip();
    }

    private void describe(
            Code code,
            String label,
            String description,
            String calcJob,
            String prependText,
            String appendText,
            Boolean withMpi) {
        code.setLabel(label);
        code.setDescription(description == null ? "" : description);
        if (calcJob != null) {
            code.defaultCalcJobPlugin(requireCalcJob(calcJob));
        }
        code.prependText(prependText == null ? "" : prependText);
        code.appendText(appendText == null ? "" : appendText);
        code.withMpi(withMpi);
    }

    private String requireCalcJob(String entryPoint) {
        List<String> calcJobs = engine.plugins().all().stream()
                .filter(CalcJobDefinition.class::isInstance)
                .map(ProcessDefinition::entryPoint)
                .sorted()
                .toList();
        try {
            if (engine.plugins().get(entryPoint) instanceof CalcJobDefinition) {
                return entryPoint;
            }
        } catch (UnknownProcessTypeException e) {
            // named below, with the calculation jobs there are
        }
        throw new InvalidInputException("field 'defaultCalcJobPlugin': '" + entryPoint
                + "' is not a calculation job; the calculation jobs are " + calcJobs);
    }

    /** The uploaded files under {@code folder}, each at the relative path its part names. */
    private static void writeFiles(List<MultipartFile> files, Path folder) throws IOException {
        if (files == null || files.isEmpty()) {
            throw new InvalidInputException("a portable code needs its files: one or more parts 'files'");
        }
        Set<String> seen = new HashSet<>();
        for (MultipartFile file : files) {
            String path = file.getOriginalFilename();
            Path target = folder.resolve(path == null ? "" : path).normalize();
            if (path == null
                    || path.isBlank()
                    || path.startsWith("/")
                    || !target.startsWith(folder)
                    || target.equals(folder)
                    || path.contains("\\")) {
                throw new InvalidInputException("part 'files': '" + path
                        + "' is not a relative path inside the code (a file name or a path like bin/run.sh)");
            }
            if (!seen.add(folder.relativize(target).toString())) {
                throw new InvalidInputException("part 'files': '" + path + "' is uploaded twice");
            }
            Files.createDirectories(target.getParent());
            try (InputStream in = file.getInputStream()) {
                Files.copy(in, target);
            }
        }
    }

    /** The files are in the object store by now (or the code was refused): the copies go. */
    private static void deleteTree(Path folder) {
        try (Stream<Path> paths = Files.walk(folder)) {
            List<Path> all = new ArrayList<>(paths.toList());
            all.sort(Comparator.reverseOrder());
            for (Path p : all) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // best effort, never masking the answer: a folder left in the temporary directory harms nothing
            LOG.warn("could not remove the upload folder {}: {}", folder, e.toString());
        }
    }
}
