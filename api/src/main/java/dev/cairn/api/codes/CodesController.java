package dev.cairn.api.codes;

import java.io.IOException;
import java.net.URI;
import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
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

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.security.CurrentUser;
import dev.cairn.api.web.Page;
import dev.cairn.storage.errors.InvalidInputException;

/** The executables calculation jobs run: installed codes (JSON) and portable ones (uploaded files). */
@RestController
@RequestMapping("/api/v1/codes")
@Tag(
        name = "codes",
        description = "Executables calculation jobs run: installed on a computer, or portable (files uploaded with"
                + " each job). Reading needs the role read, the rest admin")
class CodesController {

    private static final String REF =
            "the code's uuid (or a unique prefix of it), label@computer, or a label only" + " one code has";
    private static final int DEFAULT_LIMIT = 100;

    private final CodeService codes;
    private final CairnProperties properties;

    CodesController(CodeService codes, CairnProperties properties) {
        this.codes = codes;
        this.properties = properties;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @CreatesCode
    ResponseEntity<CodeView> createInstalled(@RequestBody NewInstalledCode body) {
        return created(codes.createInstalled(body, CurrentUser.id()));
    }

    @PostMapping(consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    @CreatesCode
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
        return created(codes.createPortable(
                files,
                label,
                executable,
                description,
                defaultCalcJobPlugin,
                prependText,
                appendText,
                withMpi,
                CurrentUser.id()));
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
        return codes.list(computer, cursor, limit);
    }

    @GetMapping("/{code}")
    @Operation(operationId = "showCode", summary = "Show a code")
    CodeView show(@Parameter(description = REF, example = "bash@localhost") @PathVariable("code") String ref) {
        return codes.show(ref);
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
        codes.delete(ref);
        return ResponseEntity.noContent().build();
    }

    private static ResponseEntity<CodeView> created(CodeView code) {
        return ResponseEntity.created(URI.create("/api/v1/codes/" + code.uuid()))
                .body(code);
    }
}
