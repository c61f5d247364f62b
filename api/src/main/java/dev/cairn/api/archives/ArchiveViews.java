package dev.cairn.api.archives;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;

import dev.cairn.storage.archive.ArchiveFormat;
import dev.cairn.storage.archive.ArchiveHeader;
import dev.cairn.storage.archive.ArchivePart;
import dev.cairn.storage.archive.ImportResult;

/** The archive endpoints' answers. */
final class ArchiveViews {

    private ArchiveViews() {}

    /** Per part, in the archive's order, keyed by the part's name ({@code nodes}, {@code group_members}, ...). */
    static <T> Map<String, T> byPart(Map<ArchivePart, T> values) {
        Map<String, T> byKey = new LinkedHashMap<>();
        for (ArchivePart part : ArchivePart.values()) {
            byKey.put(part.key(), values.get(part));
        }
        return byKey;
    }

    /** What an archive says of itself, or (a dry run) what an export would write. */
    @Schema(
            description = "An archive's header: its format, what wrote it and when, how it was made, and its rows per"
                    + " part (objects under 'objects')",
            example = """
                    {"format": "cairn", "version": "1", "producer": "cairn 0.1.0",
                     "created": "2026-11-24T22:35:02.123456Z",
                     "parameters": {"entities": {"groups": ["0191d3a5-7b7e-7c1a-9f00-1c2d3e4f5a6b"], "nodes": [],
                       "computers": []}, "traversal_rules": {"input_calc_forward": false, "create_backward": true},
                       "include_comments": true, "include_logs": true, "include_authinfos": false},
                     "counts": {"users": 1, "computers": 1, "authinfos": 0, "groups": 1, "nodes": 42, "links": 60,
                       "group_members": 10, "comments": 0, "logs": 3, "objects": 12}}""")
    public record HeaderView(
            @Schema(description = "the archive's format", example = "cairn")
            String format,

            @Schema(description = "the format's version", example = "1")
            String version,

            @Schema(description = "what wrote the archive", example = "cairn 0.1.0")
            String producer,

            @Schema(description = "when it was written") Instant created,

            @Schema(
                    description = "how it was made: the starting set by uuid (null: everything), the traversal rules,"
                            + " what was included")
            Map<String, Object> parameters,

            @Schema(description = "rows per part; objects under 'objects'")
            Map<String, Long> counts) {

        static HeaderView of(ArchiveFormat format, ArchiveHeader header) {
            return new HeaderView(
                    format.key(),
                    header.version(),
                    header.producer(),
                    header.created(),
                    header.parameters(),
                    byPart(header.counts()));
        }
    }

    /**
     * What an import did.
     *
     * @param group the group the new nodes went into; left out when nothing was new
     */
    @Schema(description = "What an import added; a second import of the same archive adds nothing")
    public record ImportView(
            HeaderView header,

            @Schema(description = "rows (objects) added per part: what the installation did not have")
            Map<String, Long> added,

            @Schema(description = "nodes of the archive the installation had already (their extras merged)")
            long existing,

            @JsonInclude(JsonInclude.Include.NON_NULL)
            @Schema(
                    description = "the label of the group the new nodes went into; left out when no node was new",
                    example = "import-20261124-223502")
            String group) {

        static ImportView of(ArchiveFormat format, ImportResult result) {
            Map<ArchivePart, Long> added = new LinkedHashMap<>();
            for (ArchivePart part : ArchivePart.values()) {
                added.put(part, result.added(part));
            }
            return new ImportView(
                    HeaderView.of(format, result.header()), byPart(added), result.existing(), result.group());
        }
    }

    /** One part of an archive as it was read and verified. */
    @Schema(description = "A part as read: its rows (objects) and the bytes of its stream, checksums verified")
    public record PartView(
            @Schema(description = "rows, or objects", example = "42")
            long count,

            @Schema(description = "bytes of the part's stream (for objects: of their contents)", example = "18230")
            long bytes) {}

    /** An archive read through without importing. */
    @Schema(description = "An archive read to its end, every checksum verified, nothing imported")
    public record InspectionView(
            HeaderView header,

            @Schema(description = "each part as read, in the archive's order")
            Map<String, PartView> parts) {}
}
