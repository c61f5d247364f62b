package dev.cairn.api.web;

import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.type.LogicalType;

/**
 * Request bodies are read as the document types them: a string field takes a string, not
 * {@code false} or {@code 3} turned into text; a number, boolean, time or uuid takes its own JSON
 * type, not a string holding one, and not {@code ""} taken for null. Jackson would coerce each of
 * these by default, so that {@code {"label": false}} made a computer labelled "false" and
 * {@code {"expires": ""}} a token that never expires; now each is a 400 naming the field.
 */
@Configuration(proxyBeanMethods = false)
class StrictJson {

    @Bean
    JsonMapperBuilderCustomizer noScalarCoercion() {
        return builder -> {
            builder.withCoercionConfig(
                    LogicalType.Textual,
                    c -> c.setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
                            .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                            .setCoercion(CoercionInputShape.Float, CoercionAction.Fail));
            for (LogicalType scalar : new LogicalType[] {LogicalType.Integer, LogicalType.Float, LogicalType.Boolean}) {
                builder.withCoercionConfig(
                        scalar,
                        c -> c.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                                .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail));
            }
            builder.withCoercionConfig(
                    LogicalType.Integer, c -> c.setCoercion(CoercionInputShape.Float, CoercionAction.Fail));
            builder.withCoercionConfig(
                    LogicalType.Boolean, c -> c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail));
            for (LogicalType scalar : new LogicalType[] {LogicalType.DateTime, LogicalType.OtherScalar}) {
                builder.withCoercionConfig(
                        scalar, c -> c.setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail));
            }
        };
    }
}
