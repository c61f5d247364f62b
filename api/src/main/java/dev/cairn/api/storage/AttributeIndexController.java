package dev.cairn.api.storage;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import dev.cairn.api.storage.AttributeIndexViews.AttributeIndexView;
import dev.cairn.api.storage.AttributeIndexViews.NewAttributeIndex;
import dev.cairn.api.web.Page;
import dev.cairn.storage.query.AttributeIndex;

/** Indexes on hot attributes of the nodes, declared by an operator: listed, built, dropped. */
@RestController
@RequestMapping("/api/v1/storage/attribute-indexes")
@Tag(
        name = "attribute indexes",
        description = "Indexes an operator declares on hot attributes (role admin), so that queries filtering on"
                + " them read an index instead of every node")
class AttributeIndexController {

    private final AttributeIndexService indexes;

    AttributeIndexController(AttributeIndexService indexes) {
        this.indexes = indexes;
    }

    @GetMapping
    @Operation(
            operationId = "listAttributeIndexes",
            summary = "List the declared attribute indexes",
            description = "Every index declared on an attribute, with its state (ready, building, invalid) and size.")
    Page<AttributeIndexView> list() {
        return new Page<>(indexes.list(), null, null);
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(
            operationId = "addAttributeIndex",
            summary = "Declare an index on an attribute, and build it",
            description = "Builds, without blocking writers (CREATE INDEX CONCURRENTLY), an index of the nodes' values"
                    + " at the key that are of the type, on the expression a query's filter on that attribute"
                    + " compiles to, so the planner uses it for those filters; then gathers its statistics. Answers"
                    + " when it is built: seconds per million nodes, longer while transactions that write nodes are"
                    + " open. Declaring one that is ready changes nothing; one left invalid by a failed build is"
                    + " dropped and built again.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(
                                            schema = @Schema(implementation = NewAttributeIndex.class),
                                            examples =
                                                    @ExampleObject(
                                                            value = "{\"key\": \"energy\", \"type\": \"number\"}"))))
    @ApiResponse(responseCode = "200", description = "The index, ready (or building, if another request builds it)")
    @ApiResponse(
            responseCode = "400",
            description = "No key, an empty path element, a control character, a key over 200 characters, or a type"
                    + " other than number and string; the detail names it")
    @ApiResponse(
            responseCode = "503",
            description = "The build failed in the database (cancelled, out of disk): the index is listed as invalid"
                    + " until it is declared again")
    AttributeIndexView add(@RequestBody NewAttributeIndex body) {
        return indexes.add(body.key(), body.type());
    }

    @DeleteMapping
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Operation(
            operationId = "dropAttributeIndex",
            summary = "Drop an attribute index",
            description = "Drops it without blocking writers (DROP INDEX CONCURRENTLY); queries filtering on the"
                    + " attribute read every node again.")
    @ApiResponse(responseCode = "204", description = "Dropped")
    @ApiResponse(responseCode = "404", description = "No index is declared on that key with that type")
    void drop(
            @Parameter(
                            description = AttributeIndexViews.KEY_DESCRIPTION,
                            example = "energy",
                            schema =
                                    @Schema(
                                            minLength = 1,
                                            maxLength = AttributeIndex.MAX_KEY_LENGTH,
                                            pattern = AttributeIndexViews.KEY_PATTERN))
                    @RequestParam("key")
                    String key,
            @Parameter(
                            description = AttributeIndexViews.TYPE_DESCRIPTION,
                            example = "number",
                            schema = @Schema(allowableValues = {"number", "string"}))
                    @RequestParam("type")
                    String type) {
        indexes.drop(key, type);
    }
}
