package dev.cairn.api.web;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * What every paged list shares: the page size a client asked for, checked against the server's
 * limit ({@code cairn.limits.page-max}), and the response with {@code Link: <…>; rel="next"}
 * (the request's own URL with the next cursor) beside the {@link Page}'s {@code next}, and
 * {@code X-Total-Count} beside its {@code total} when it was counted.
 */
public final class Paging {

    /** Items a page holds when the client names no limit. */
    public static final int DEFAULT_LIMIT = 100;

    private Paging() {}

    /** The page size: {@code requested}, or the default; between 1 and {@code max}. */
    public static int limit(Integer requested, int max) {
        if (requested == null) {
            return Math.min(DEFAULT_LIMIT, max);
        }
        if (requested < 1 || requested > max) {
            throw new InvalidInputException("limit " + requested + " is out of range: a page holds 1 to " + max
                    + " items (cairn.limits.page-max)");
        }
        return requested;
    }

    /** The page with a {@code Link} header to the next one, when there is one. */
    public static <T> ResponseEntity<Page<T>> response(Page<T> page) {
        ResponseEntity.BodyBuilder ok = ResponseEntity.ok();
        if (page.next() != null) {
            String next = ServletUriComponentsBuilder.fromCurrentRequest()
                    .replaceQueryParam("cursor", page.next())
                    .build()
                    .toUriString();
            ok.header(HttpHeaders.LINK, "<" + next + ">; rel=\"next\"");
        }
        if (page.total() != null) {
            ok.header("X-Total-Count", page.total().toString());
        }
        return ok.body(page);
    }
}
