package dev.cairn.api.web;

import java.net.URI;
import java.util.Locale;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

import dev.cairn.storage.errors.CairnException;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.errors.UnavailableException;

/**
 * The kinds of problem the API answers with (RFC 9457): each has its own type URI, so a client
 * can tell them apart without reading the text; the detail says what was wrong.
 */
public enum Problems {
    NOT_FOUND(HttpStatus.NOT_FOUND, "Not found"),
    INVALID_INPUT(HttpStatus.BAD_REQUEST, "Invalid input"),
    CONFLICT(HttpStatus.CONFLICT, "Conflict"),
    UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "Service unavailable"),
    OBJECT_STORE(HttpStatus.INTERNAL_SERVER_ERROR, "Object store failure"),
    UNAUTHENTICATED(HttpStatus.UNAUTHORIZED, "Unauthenticated"),
    FORBIDDEN(HttpStatus.FORBIDDEN, "Forbidden"),
    READ_ONLY(HttpStatus.FORBIDDEN, "Read-only server"),
    TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE, "Content too large"),
    INTERNAL(HttpStatus.INTERNAL_SERVER_ERROR, "Internal error");

    private final HttpStatus status;
    private final String title;

    Problems(HttpStatus status, String title) {
        this.status = status;
        this.title = title;
    }

    /** The kind of problem a Cairn error is: one exhaustive switch over the error families. */
    public static Problems of(CairnException e) {
        return switch (e) {
            case NotFoundException n -> NOT_FOUND;
            case InvalidInputException i -> INVALID_INPUT;
            case ConflictException c -> CONFLICT;
            case UnavailableException u -> UNAVAILABLE;
        };
    }

    public HttpStatus status() {
        return status;
    }

    public String title() {
        return title;
    }

    /** {@code urn:cairn:problem:not-found}, ... */
    public URI type() {
        return URI.create("urn:cairn:problem:" + name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }

    public ProblemDetail with(String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(type());
        problem.setTitle(title);
        return problem;
    }
}
