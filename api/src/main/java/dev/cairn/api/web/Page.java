package dev.cairn.api.web;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One page of a list. Lists are paged by keyset: {@code next} is an opaque cursor that asks for the
 * page after this one (also given as {@code Link: <…>; rel="next"}), null on the last page. The
 * total is counted only when asked for ({@code ?count=true}): counting a large table costs more
 * than a page.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Page<T>(List<T> items, String next, Long total) {

    public Page {
        items = List.copyOf(items);
    }
}
