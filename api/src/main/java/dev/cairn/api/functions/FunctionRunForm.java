package dev.cairn.api.functions;

import java.util.List;

import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;

/** The multipart form of a run with files (documentation only: the controller reads the parts). */
@Schema(description = "A run whose outputs include files or folders, as a multipart form")
record FunctionRunForm(
        @Schema(
                description = "the run as JSON, as the JSON body of this operation; its outputs of the type file,"
                        + " folder or array are {\"type\": \"file\"}, {\"type\": \"folder\"} and {\"type\":"
                        + " \"array\"}",
                example = "{\"call\": {\"function\": {\"module\": \"analysis\", \"name\": \"plot\"}},"
                        + " \"outputs\": {\"plot\": {\"type\": \"file\"}}}",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String run,

        @ArraySchema(
                arraySchema =
                        @Schema(
                                description = "the outputs' files; each part's filename is <output>/<path>:"
                                        + " plot/fig.png is the file of the output plot, frames/0/a.xyz a file of"
                                        + " the folder frames, spectrum/default.npy the array default of the"
                                        + " array spectrum"),
                schema = @Schema(type = "string", format = "binary"))
        List<String> files) {}
