package dev.cairn.api.nodes;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The entries of a folder of a node's files.
 *
 * @param node    the node's uuid
 * @param path    the folder ("" for the top)
 * @param entries its files and folders, by name (with {@code recursive}, every file below it)
 */
@Schema(description = "The entries of a folder of a node's files")
public record FileListing(
        @Schema(example = "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55")
        String node,

        @Schema(example = "out") String path,
        List<Entry> entries) {

    /**
     * A file or a folder.
     *
     * @param type {@code file} or {@code directory}
     * @param size a file's size in bytes
     * @param key  a file's object key (the SHA-256 of its content), also its download's ETag
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Entry(
            @Schema(example = "aiida.out") String name,
            @Schema(example = "out/aiida.out") String path,

            @Schema(
                    example = "file",
                    allowableValues = {"file", "directory"})
            String type,

            @Schema(example = "5120") Long size,

            @Schema(example = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
            String key) {}
}
