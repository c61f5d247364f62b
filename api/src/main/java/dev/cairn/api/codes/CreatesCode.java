package dev.cairn.api.codes;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.http.MediaType;

/**
 * The OpenAPI operation of {@code POST /api/v1/codes}, on both of its mappings: the document has one operation
 * per path and method, so the JSON mapping (an installed code) and the multipart one (a portable code) each
 * describe both.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Operation(
        operationId = "createCode",
        summary = "Store a code, installed (JSON) or portable (multipart)",
        description = """
                An installed code, sent as JSON, is an executable at an absolute path on a computer. Its label is \
                unique on its computer and may not contain '@' (codes are named label@computer). An unknown \
                computer or calculation job is a 400 naming the known ones, and nothing is stored.

                A portable code, sent as multipart/form-data, has its files uploaded with every job, to whichever \
                computer the launch names. The parts 'files' carry the files, each named by its path in the code \
                (a file name, or a relative path such as bin/run.sh: curl -F 'files=@run.sh;filename=bin/run.sh'); \
                the executable is one of them. Its label is unique among portable codes.""",
        requestBody =
                @RequestBody(
                        content = {
                            @Content(
                                    mediaType = MediaType.APPLICATION_JSON_VALUE,
                                    schema = @Schema(implementation = NewInstalledCode.class),
                                    examples = @ExampleObject(name = "installed", value = """
                                                            {"label": "bash", "computer": "localhost", \
                                                            "executable": "/bin/bash", "description": \
                                                            "bash, for arithmetic.add", \
                                                            "defaultCalcJobPlugin": "arithmetic.add"}""")),
                            @Content(
                                    mediaType = MediaType.MULTIPART_FORM_DATA_VALUE,
                                    schema = @Schema(implementation = PortableCodeForm.class))
                        }),
        responses = {
            @ApiResponse(responseCode = "201", description = "the code, stored (a portable one with its files)"),
            @ApiResponse(
                    responseCode = "409",
                    description = "a code has the label already (on that computer, or among portable codes)")
        })
@interface CreatesCode {}
