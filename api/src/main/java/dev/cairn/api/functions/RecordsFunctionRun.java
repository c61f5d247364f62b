package dev.cairn.api.functions;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.http.MediaType;

/**
 * The OpenAPI operation of {@code POST /api/v1/function-runs}, on both of its mappings: the document has one
 * operation per path and method, so the JSON mapping and the multipart one each describe both bodies.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Operation(
        operationId = "recordFunctionRun",
        summary = "Record a run of a client's function",
        description = """
                Stores a function the client ran as a calcfunction of the process type \
                python:<module>.<name>, as the calling user, in one transaction: its input nodes (new values \
                and stored nodes, linked as its inputs), its source (the file source_file; its SHA-256 in the \
                attribute source_sha256, part of the hash), and how it ended: finished with its new outputs \
                (exit status 0), finished with a non-zero exit status and no outputs, or excepted with what it \
                raised. Outputs that are files, folders or arrays ({"type": "file"}, {"type": "folder"}, \
                {"type": "array"}: NumPy .npy files named <array>.npy) come in a multipart/form-data request: the \
                run's JSON in the part 'run', each file in a part 'files' whose filename is <output>/<path> \
                (curl -F 'run=<run.json' -F 'files=@fig.png;filename=plot/fig.png'). \
                A stored node as an output, outputs with a failure, a name that is not a port name, a file no \
                output names: a 400 naming every problem, and nothing is stored. Needs the role submit.""",
        requestBody =
                @RequestBody(
                        content = {
                            @Content(
                                    mediaType = MediaType.APPLICATION_JSON_VALUE,
                                    schema = @Schema(implementation = FunctionRunRequest.class)),
                            @Content(
                                    mediaType = MediaType.MULTIPART_FORM_DATA_VALUE,
                                    schema = @Schema(implementation = FunctionRunForm.class))
                        }),
        responses = @ApiResponse(responseCode = "201", description = "recorded; Location is the process"))
@interface RecordsFunctionRun {}
