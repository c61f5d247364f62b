package dev.cairn.api.web;

import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.servlet.http.HttpServletResponse;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.apache.tomcat.util.http.fileupload.impl.FileCountLimitExceededException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
import org.springframework.web.multipart.MultipartException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import dev.cairn.engine.process.InvalidInputsException;
import dev.cairn.storage.errors.CairnException;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.SqlErrors;
import dev.cairn.storage.objects.BucketUnavailableException;
import dev.cairn.storage.objects.ContainerLockedException;
import dev.cairn.storage.objects.CorruptObjectException;
import dev.cairn.storage.objects.NotAContainerException;
import dev.cairn.storage.objects.ObjectNotFoundException;
import dev.cairn.storage.objects.ObjectStoreException;
import dev.cairn.storage.objects.UnsupportedContainerException;

/**
 * Every error as an RFC 9457 problem: Cairn's families by one exhaustive switch ({@link Problems#of}), the object
 * store's own by another, Spring's (malformed JSON, a missing parameter, a wrong method) with
 * Cairn's types. A detail names what was wrong; a stack trace never leaves the server, whose
 * log has it under the incident id the problem names.
 */
@RestControllerAdvice
class ProblemDetailsAdvice extends ResponseEntityExceptionHandler {

    /** How Tomcat's multipart parser words a part's header section that runs past its limit. */
    private static final String UNENDED_PART_HEADERS = "Header section has more than";

    private static final Logger LOG = LoggerFactory.getLogger(ProblemDetailsAdvice.class);

    @ExceptionHandler(CairnException.class)
    ResponseEntity<ProblemDetail> cairn(CairnException e, HttpServletResponse sent) {
        abortIfCommitted(e, sent);
        // an invalid input names the refusal already (a query's value)
        Optional<String> refused = e instanceof InvalidInputException ? Optional.empty() : SqlErrors.refusedValue(e);
        if (refused.isPresent()) {
            return refusedValue(e.getMessage() + ": ", refused.get());
        }
        Problems kind = Problems.of(e);
        ProblemDetail problem = kind.with(e.getMessage());
        if (e instanceof InvalidInputsException inputs) {
            problem.setProperty("problems", inputs.problems());
        }
        ResponseEntity.BodyBuilder response = ResponseEntity.status(kind.status());
        if (kind == Problems.UNAVAILABLE) {
            LOG.warn("unavailable: {}", e.getMessage());
            response.header(HttpHeaders.RETRY_AFTER, Outages.RETRY_AFTER_SECONDS);
        }
        return response.body(problem);
    }

    @ExceptionHandler(ObjectStoreException.class)
    ResponseEntity<ProblemDetail> objectStore(ObjectStoreException e, HttpServletResponse response)
            throws ObjectStoreException {
        abortIfCommitted(e, response);
        Problems kind = switch (e) {
            case ObjectNotFoundException n -> Problems.NOT_FOUND;
            case ContainerLockedException l -> Problems.CONFLICT;
            case CorruptObjectException c -> Problems.OBJECT_STORE;
            case NotAContainerException n -> Problems.OBJECT_STORE;
            case UnsupportedContainerException u -> Problems.OBJECT_STORE;
            case BucketUnavailableException b -> Problems.UNAVAILABLE;
        };
        if (kind == Problems.OBJECT_STORE) {
            LOG.error("the object store failed", e);
        }
        if (kind == Problems.UNAVAILABLE) {
            LOG.warn("unavailable: {}", e.getMessage());
            return ResponseEntity.status(kind.status())
                    .header(HttpHeaders.RETRY_AFTER, Outages.RETRY_AFTER_SECONDS)
                    .body(kind.with(e.getMessage()));
        }
        return ResponseEntity.status(kind.status()).body(kind.with(e.getMessage()));
    }

    @ExceptionHandler(AccessDeniedException.class)
    ResponseEntity<ProblemDetail> denied(AccessDeniedException e) {
        return ResponseEntity.status(Problems.FORBIDDEN.status())
                .body(Problems.FORBIDDEN.with("this token's roles do not allow it: " + e.getMessage()));
    }

    /** The values a repeated parameter was given, the first few: a fuzzed query may repeat it 1,000 times. */
    private static String firstOf(String[] given) {
        int shown = Math.min(given.length, 5);
        return String.join(", ", Arrays.copyOf(given, shown)) + (shown < given.length ? ", ..." : "");
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<ProblemDetail> mismatch(MethodArgumentTypeMismatchException e) {
        String expected = e.getRequiredType() == null ? "another value" : describe(e.getRequiredType());
        if (e.getValue() instanceof String[] given && given.length != 1) {
            // ?paused=true&paused=true: one value was asked for
            return ResponseEntity.badRequest()
                    .body(Problems.INVALID_INPUT.with("parameter '" + e.getName() + "' is given " + given.length
                            + " times (" + firstOf(given) + "); give it once, " + expected));
        }
        return ResponseEntity.badRequest()
                .body(Problems.INVALID_INPUT.with(
                        "parameter '" + e.getName() + "': '" + e.getValue() + "' is not " + expected));
    }

    /**
     * A value of the request the database cannot hold (see {@link SqlErrors#refusedValue}): the request's
     * fault (400), not an outage (503) nor a fault of the server (500, when it came through Hibernate
     * unwrapped); the transaction it failed in rolled back, so nothing was stored.
     */
    private static ResponseEntity<ProblemDetail> refusedValue(String doing, String reason) {
        return ResponseEntity.badRequest()
                .body(Problems.INVALID_INPUT.with(doing + "the database refused a value of this request: " + reason));
    }

    /**
     * A body sent as {@code multipart/form-data} that is not one (no boundary, a broken part): the
     * request's fault, whichever operation it reached. (A too large upload is a 413, below.)
     */
    @ExceptionHandler(MultipartException.class)
    ResponseEntity<ProblemDetail> multipart(MultipartException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        return ResponseEntity.badRequest()
                .body(Problems.INVALID_INPUT.with("the body is not valid multipart/form-data: " + cause.getMessage()));
    }

    /** A query string Tomcat cannot split into parameters (a parameter without a name, {@code ?=x}). */
    @ExceptionHandler(InvalidParameterException.class)
    ResponseEntity<ProblemDetail> queryString(InvalidParameterException e) {
        return ResponseEntity.badRequest()
                .body(Problems.INVALID_INPUT.with("the query string is malformed: " + e.getMessage()
                        + " (each parameter is name=value, with a name)"));
    }

    /**
     * Anything else is a fault of the server: logged with an id, answered without its details; but an
     * outage that reached here unwrapped (a JDBC connection failure) is a 503, as Cairn's own are.
     */
    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception e, HttpServletResponse response) throws Exception {
        abortIfCommitted(e, response);
        if (Outages.isOutage(e)) {
            LOG.warn("unavailable: {}", e.toString());
            return ResponseEntity.status(Problems.UNAVAILABLE.status())
                    .header(HttpHeaders.RETRY_AFTER, Outages.RETRY_AFTER_SECONDS)
                    .body(Problems.UNAVAILABLE.with(Outages.describe(e) + ": a service the server needs did not"
                            + " answer; try again shortly"));
        }
        Optional<String> refused = SqlErrors.refusedValue(e);
        if (refused.isPresent()) {
            return refusedValue("", refused.get());
        }
        String incident = UUID.randomUUID().toString();
        LOG.error("incident {}", incident, e);
        ProblemDetail problem = Problems.INTERNAL.with(
                "the server failed to answer; its log has the details under incident " + incident);
        problem.setProperty("incident", incident);
        return ResponseEntity.internalServerError().body(problem);
    }

    /**
     * A failure after a streamed response began (a download, a zip) cannot become a problem: the
     * status is sent, and a problem's JSON appended to the body would corrupt it. Thrown on, it
     * ends the response where it stopped, short of what it declared; the container logs it.
     */
    private static <E extends Exception> void abortIfCommitted(E e, HttpServletResponse response) throws E {
        if (response != null && response.isCommitted()) {
            throw e;
        }
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException e, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return ResponseEntity.badRequest().body(Problems.INVALID_INPUT.with(JsonProblems.describe(e)));
    }

    @Override
    protected ResponseEntity<Object> handleMissingServletRequestParameter(
            MissingServletRequestParameterException e, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return ResponseEntity.badRequest()
                .body(Problems.INVALID_INPUT.with("the query parameter '" + e.getParameterName() + "' ("
                        + e.getParameterType() + ") is required"));
    }

    /**
     * Our own limits name their size; a size error without one is Tomcat's parser: a part whose header
     * section never ends is a malformed body, a 400; more parts than Tomcat takes is said as such.
     */
    @Override
    protected ResponseEntity<Object> handleMaxUploadSizeExceededException(
            MaxUploadSizeExceededException e, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        for (Throwable cause = e; e.getMaxUploadSize() < 0 && cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null && cause.getMessage().contains(UNENDED_PART_HEADERS)) {
                return ResponseEntity.badRequest()
                        .body(Problems.INVALID_INPUT.with("the body is not valid multipart/form-data: a part's header"
                                + " section does not end with a blank line within the bytes the server reads ("
                                + cause.getMessage() + ")"));
            }
        }
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof FileCountLimitExceededException parts) {
                return ResponseEntity.status(Problems.TOO_LARGE.status())
                        .body(Problems.TOO_LARGE.with("the upload has more parts than the server takes ("
                                + parts.getLimit() + ", server.tomcat.max-part-count)"));
            }
        }
        return ResponseEntity.status(Problems.TOO_LARGE.status())
                .body(Problems.TOO_LARGE.with("the upload is larger than the server takes ("
                        + (e.getMaxUploadSize() < 0 ? "its limit" : e.getMaxUploadSize() + " bytes") + ")"));
    }

    /**
     * Spring's own problems (no resource at the path, a wrong method, an unsupported media type, ...) keep
     * their status and get Cairn's type for it (Spring leaves the type unset).
     */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(
            Exception e, Object body, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ResponseEntity<Object> response = super.handleExceptionInternal(e, body, headers, status, request);
        if (response != null && response.getBody() instanceof ProblemDetail problem) {
            Problems kind = switch (status.value()) {
                case 404 -> Problems.NOT_FOUND;
                case 413 -> Problems.TOO_LARGE;
                case 503 -> Problems.UNAVAILABLE;
                default -> status.is5xxServerError() ? Problems.INTERNAL : Problems.INVALID_INPUT;
            };
            problem.setType(kind.type());
        }
        return response;
    }

    private static String describe(Class<?> type) {
        if (type == UUID.class) {
            return "a uuid";
        }
        if (List.of(int.class, Integer.class, long.class, Long.class).contains(type)) {
            return "an integer";
        }
        if (type == OffsetDateTime.class) {
            return "an ISO 8601 time with an offset (2026-11-24T00:00:00Z)";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type.isEnum()) {
            return "one of " + List.of(type.getEnumConstants());
        }
        return "a " + type.getSimpleName();
    }
}
