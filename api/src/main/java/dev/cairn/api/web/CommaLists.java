package dev.cairn.api.web;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Names a request gives as a list, the way every surface takes them: a parameter repeated
 * ({@code ?state=created&state=waiting}), comma-separated ({@code ?state=created,waiting}), or both.
 */
public final class CommaLists {

    private CommaLists() {}

    /** The names given, split at commas, stripped, in lower case, each once, in order; none for null. */
    public static List<String> names(List<String> given) {
        if (given == null) {
            return List.of();
        }
        return given.stream()
                .filter(s -> s != null)
                .flatMap(s -> Arrays.stream(s.split(",")))
                .map(s -> s.strip().toLowerCase(Locale.ROOT))
                .filter(s -> !s.isEmpty())
                .distinct()
                .toList();
    }
}
