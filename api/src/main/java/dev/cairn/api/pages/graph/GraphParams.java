package dev.cairn.api.pages.graph;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import dev.cairn.api.web.CommaLists;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.LinkType;

/**
 * What a graph page asks for, as it stands in its URL (so a view can be bookmarked): the depth each
 * way, the link types, the nodes expanded one more link ({@code uuid:out} or {@code uuid:in}), the
 * folded fan-outs opened, and another node to find the path to.
 */
record GraphParams(int depth, Set<LinkType> types, List<String> expanded, List<String> opened, String pathTo) {

    static final int MAX_DEPTH = 6;

    GraphParams {
        if (depth < 1 || depth > MAX_DEPTH) {
            throw new InvalidInputException("depth " + depth + " is not between 1 and " + MAX_DEPTH);
        }
        expanded = expanded == null ? List.of() : List.copyOf(expanded);
        opened = opened == null ? List.of() : List.copyOf(opened);
        pathTo = pathTo == null || pathTo.isBlank() ? null : pathTo.strip();
    }

    /** Link types by name, comma-separated; empty or null: every type. */
    static Set<LinkType> types(String names) {
        if (names == null || names.isBlank() || "all".equals(names.strip())) {
            return EnumSet.allOf(LinkType.class);
        }
        Set<LinkType> types = EnumSet.noneOf(LinkType.class);
        for (String name : CommaLists.names(List.of(names))) {
            types.add(LinkType.fromDbValue(name));
        }
        return types;
    }
}
