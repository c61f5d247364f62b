package dev.cairn.api.nodes;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The node filters of an operation that reads them from the request itself (see {@link NodeParams}), described
 * for the API document: {@code filter} (repeatable), {@code type} and {@code query}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Parameter(
        name = "filter",
        in = ParameterIn.QUERY,
        description = NodeParams.FILTER,
        array = @ArraySchema(schema = @Schema(type = "string")))
@Parameter(name = "type", in = ParameterIn.QUERY, description = NodeParams.TYPE, schema = @Schema(type = "string"))
@Parameter(name = "query", in = ParameterIn.QUERY, description = NodeParams.QUERY, schema = @Schema(type = "string"))
@interface NodeFilterParameters {}
