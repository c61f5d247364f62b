package dev.cairn.api.web;

import java.util.Collection;
import java.util.stream.Collectors;

import org.springframework.http.converter.HttpMessageNotReadableException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/** A request body that does not read as the endpoint's JSON, said as a client needs to hear it. */
public final class JsonProblems {

    private JsonProblems() {}

    static String describe(HttpMessageNotReadableException e) {
        return e.getCause() == null ? "the request has no readable body" : describe(e.getCause());
    }

    /** What {@code failure}, or the first Jackson exception among its causes, says is wrong with the JSON. */
    public static String describe(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            switch (t) {
                case UnrecognizedPropertyException u -> {
                    return "unknown field '" + path(u) + "'" + known(u.getKnownPropertyIds());
                }
                case InvalidFormatException f -> {
                    return "field '" + path(f) + "': '" + f.getValue() + "' is not "
                            + article(f.getTargetType().getSimpleName());
                }
                case MismatchedInputException m -> {
                    String where = path(m).isEmpty() ? "the body" : "field '" + path(m) + "'";
                    return where + ": expected "
                            + (m.getTargetType() == null
                                    ? "another JSON value"
                                    : article(m.getTargetType().getSimpleName()))
                            + (m.getCurrentToken() == null
                                    ? ""
                                    : ", got " + m.getCurrentToken().asString());
                }
                case StreamReadException r -> {
                    return "malformed JSON" + at(r.getLocation()) + ": " + r.getOriginalMessage();
                }
                case JacksonException j -> {
                    return "the body does not read as JSON of this endpoint: " + j.getOriginalMessage();
                }
                default -> {}
            }
        }
        return "the body is not readable JSON";
    }

    private static String path(JacksonException e) {
        return e.getPath().stream()
                .map(r -> r.getPropertyName() != null ? r.getPropertyName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining("."))
                .replace(".[", "[");
    }

    private static String known(Collection<Object> ids) {
        return ids == null || ids.isEmpty()
                ? ""
                : "; known fields are "
                        + ids.stream().map(String::valueOf).sorted().toList();
    }

    private static String at(TokenStreamLocation location) {
        return location == null || location.getLineNr() < 0
                ? ""
                : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    private static String article(String type) {
        return switch (type) {
            case "Integer", "int", "Long", "long" -> "an integer";
            case "Boolean", "boolean" -> "a boolean";
            case "String" -> "a string";
            case "UUID" -> "a uuid";
            default -> "a " + type;
        };
    }
}
