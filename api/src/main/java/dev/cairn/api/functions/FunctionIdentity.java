package dev.cairn.api.functions;

import io.swagger.v3.oas.annotations.media.Schema;

/** Which function a client ran: its module, its name there, and its source. */
@Schema(description = "A function, as the client names it: its module and qualified name, and its source code")
record FunctionIdentity(
        @Schema(
                description = "the module it is defined in (__main__ for a notebook or a script)",
                pattern = FunctionIdentity.MODULE,
                maxLength = FunctionIdentity.MAX_NAME,
                example = "analysis",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String module,

        @Schema(
                description = "its qualified name in the module",
                pattern = FunctionIdentity.NAME,
                maxLength = FunctionIdentity.MAX_NAME,
                example = "rescale",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String name,

        @Schema(
                nullable = true,
                description = "its source code, kept with the run (the file source_file) and hashed into it: a"
                        + " changed function is not served the results of the old one. Without it, the cache"
                        + " knows the function by its name alone",
                maxLength = FunctionIdentity.MAX_SOURCE,
                example = "def rescale(structure, factor):\n    ...\n")
        String source) {

    static final String MODULE = "^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$";
    static final String NAME = "^[A-Za-z_<][A-Za-z0-9_<>]*(\\.[A-Za-z_<][A-Za-z0-9_<>]*)*$";
    static final int MAX_NAME = 200;
    static final int MAX_SOURCE = 1_000_000;
}
