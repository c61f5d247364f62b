package dev.cairn.api.processes;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import tools.jackson.databind.JsonNode;

/** A shell job in JSON: a command line, the computer it runs on, and the inputs its placeholders name. */
@Schema(
        description = "A shell job (core.shell): any program run as a calculation job. The program is found on the"
                + " computer (its code, labelled after it, is made at the first run); the arguments' placeholders"
                + " {name} stand for the inputs of 'nodes'",
        example = """
                {"command": "wc -l {data}", "computer": "localhost", "nodes": {"data": {"uuid": \
                "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55"}}, "outputs": ["*.txt"]}""")
record ShellJobRequest(
        @Schema(
                description = "the program and its arguments, split into words as a POSIX shell splits them but"
                        + " never run through one ($HOME, * and ~ stay as they are); {name} in an argument stands"
                        + " for the input nodes.name, {{ and }} for literal braces",
                example = "wc -l {data}",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String command,

        @Schema(
                description = "the computer to run on, by label or uuid",
                example = "localhost",
                defaultValue = "localhost")
        String computer,

        @Schema(
                types = {"object"},
                description = "the inputs the placeholders name, by name: stored files and folders by reference"
                        + " ({\"uuid\": \"…\"}), written into the work directory; numbers, strings and booleans"
                        + " inline (2, \"text\", true) or by reference, put into the command line as text",
                example = "{\"data\": {\"uuid\": \"0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55\"}, \"n\": 2}")
        JsonNode nodes,

        @Schema(
                description = "the file name each file or folder of 'nodes' is written to, by name; by default a"
                        + " file keeps its own name and a folder's contents go into the work directory",
                example = "{\"data\": \"input.txt\"}")
        Map<String, String> filenames,

        @Schema(
                description = "files and folders the command writes, by relative name or glob; each becomes an"
                        + " output labelled after its name (results.json → results_json)",
                example = "[\"results.json\", \"*.dat\"]")
        List<String> outputs,

        @Schema(
                types = {"object"},
                description = "outputs read from files, by output name: {\"json\": \"file.json\"} for a Dict (or the"
                        + " file's JSON value), {\"regex\": \"E = (\\\\S+)\", \"file\": \"stdout\", \"match\":"
                        + " \"first\"} for a number (match: first, last, or all for a List)",
                example = "{\"energy\": {\"regex\": \"E = (\\\\S+)\"}}")
        JsonNode parsers,

        @Schema(description = "a file in the work directory the command reads as standard input", example = "input.txt")
        String stdin,

        @JsonProperty("redirect_stderr")
        @Schema(description = "true: standard error goes into stdout too", defaultValue = "false")
        Boolean redirectStderr,

        @Schema(
                types = {"object"},
                description = "use_cache (true/false) and the job's options, as for any calculation job (component"
                        + " core.shell.metadata); the computer is the field 'computer'",
                example = "{\"use_cache\": true}")
        JsonNode metadata,

        @Schema(
                nullable = true,
                description = "the open run of a workflow function (POST /api/v1/function-runs/workflows) that"
                        + " launches this job, by uuid: linked as its caller and its parent, so that killing the run"
                        + " kills it. It must be the calling user's and not ended",
                example = "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55")
        UUID caller) {}
