package dev.cairn.api.storage;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.cairn.storage.query.AttributeIndex;

/** What clients send to declare an attribute index, and what they get back. */
final class AttributeIndexViews {

    /** The pattern of a key: dot-separated elements, none empty, no control character. */
    static final String KEY_PATTERN = "^[^.\\x00-\\x1f\\x7f-\\x9f]+(\\.[^.\\x00-\\x1f\\x7f-\\x9f]+)*$";

    static final String KEY_DESCRIPTION = "the attribute's path under attributes, elements separated by dots"
            + " (energy, cell.0.0): at most 200 characters, no empty element, no control character";

    static final String TYPE_DESCRIPTION = "number: serves ==, in, <, <=, >, >= with numbers; string: the same"
            + " with strings. Values of other JSON types at the key are not in the index";

    private AttributeIndexViews() {}

    /** An index to declare. */
    @Schema(description = "An attribute index to declare")
    record NewAttributeIndex(
            @Schema(
                    description = KEY_DESCRIPTION,
                    example = "energy",
                    minLength = 1,
                    maxLength = AttributeIndex.MAX_KEY_LENGTH,
                    pattern = KEY_PATTERN,
                    requiredMode = Schema.RequiredMode.REQUIRED)
            String key,

            @Schema(
                    description = TYPE_DESCRIPTION,
                    example = "number",
                    allowableValues = {"number", "string"},
                    requiredMode = Schema.RequiredMode.REQUIRED)
            String type) {}

    /** A declared index as the database holds it. */
    @Schema(description = "A declared attribute index as the database holds it", example = """
                    {"key": "energy", "type": "number", "name": "node_attrindex_number_5a0c3e8f1b2d4c6a",
                     "state": "ready", "bytes": 245760}""")
    record AttributeIndexView(
            @Schema(
                    description = "the attribute's path; null for an index whose build was interrupted before its"
                            + " key was recorded (add it again, or drop it by name in SQL)",
                    nullable = true)
            String key,

            @Schema(
                    description = "number or string",
                    allowableValues = {"number", "string"})
            String type,

            @Schema(description = "the index's name in the database")
            String name,

            @Schema(
                    description = "ready: the planner uses it; building: being built; invalid: a build failed or was"
                            + " cancelled, and declaring it again rebuilds it",
                    allowableValues = {"ready", "building", "invalid"})
            String state,

            @Schema(description = "its size on disk, in bytes")
            long bytes) {

        static AttributeIndexView of(AttributeIndex index) {
            return new AttributeIndexView(
                    index.key(),
                    index.type().label(),
                    index.name(),
                    index.state().label(),
                    index.bytes());
        }
    }
}
