package dev.cairn.engine.caching;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * Which process types look for a cached result before they run. A type is enabled when
 * the most specific pattern matching its entry point is in {@code enabledFor}, disabled when
 * it is in {@code disabledFor}, and follows {@code defaultEnabled} when none matches.
 * Patterns are entry points, or prefixes ending in {@code *} ("quantumespresso.*"); an exact
 * name beats any wildcard, and a longer wildcard beats a shorter one. The same specificity in
 * both lists is refused when the policy is made, naming both patterns.
 */
public record CachingPolicy(boolean defaultEnabled, List<String> enabledFor, List<String> disabledFor) {

    public static final CachingPolicy OFF = new CachingPolicy(false, List.of(), List.of());
    public static final CachingPolicy ALL = new CachingPolicy(true, List.of(), List.of());

    public CachingPolicy {
        enabledFor = List.copyOf(enabledFor);
        disabledFor = List.copyOf(disabledFor);
        for (String p : enabledFor) {
            check(p);
        }
        for (String p : disabledFor) {
            check(p);
        }
    }

    /**
     * A policy written as a setting: {@code off}, {@code all}, or entry-point patterns separated by
     * commas, a leading {@code -} turning one off ({@code arithmetic.*,-arithmetic.sum}).
     */
    public static CachingPolicy parse(String setting) {
        String spec = setting == null ? "off" : setting.strip();
        if (spec.isEmpty() || spec.equals("off")) {
            return OFF;
        }
        if (spec.equals("all")) {
            return ALL;
        }
        List<String> on = new ArrayList<>();
        List<String> off = new ArrayList<>();
        for (String p : spec.split(",")) {
            String pattern = p.strip();
            if (!pattern.isEmpty()) {
                (pattern.startsWith("-") ? off : on).add(pattern.substring(pattern.startsWith("-") ? 1 : 0));
            }
        }
        return new CachingPolicy(false, on, off);
    }

    /** Caching for these patterns only. */
    public static CachingPolicy enabledFor(String... patterns) {
        return new CachingPolicy(false, List.of(patterns), List.of());
    }

    /** Whether a launch of {@code entryPoint} uses the cache; {@code override} (per launch) wins when not null. */
    public boolean isEnabled(String entryPoint, Boolean override) {
        if (override != null) {
            return override;
        }
        Optional<Match> on = best(enabledFor, entryPoint);
        Optional<Match> off = best(disabledFor, entryPoint);
        if (on.isEmpty() && off.isEmpty()) {
            return defaultEnabled;
        }
        if (off.isEmpty()) {
            return true;
        }
        if (on.isEmpty()) {
            return false;
        }
        if (on.get().specificity() == off.get().specificity()) {
            throw new IllegalStateException("caching for '" + entryPoint + "' is ambiguous: '"
                    + on.get().pattern() + "' enables it and '" + off.get().pattern()
                    + "' disables it, equally specific");
        }
        return on.get().specificity() > off.get().specificity();
    }

    private record Match(String pattern, int specificity) {}

    private static Optional<Match> best(List<String> patterns, String entryPoint) {
        Match best = null;
        for (String p : patterns) {
            int s = specificity(p, entryPoint);
            if (s >= 0 && (best == null || s > best.specificity())) {
                best = new Match(p, s);
            }
        }
        return Optional.ofNullable(best);
    }

    /** -1 for no match; an exact name beats every wildcard. */
    private static int specificity(String pattern, String entryPoint) {
        if (pattern.endsWith("*")) {
            return entryPoint.startsWith(pattern.substring(0, pattern.length() - 1)) ? pattern.length() - 1 : -1;
        }
        return pattern.equals(entryPoint) ? Integer.MAX_VALUE : -1;
    }

    private static void check(String pattern) {
        if (pattern == null
                || pattern.isEmpty()
                || pattern.indexOf('*') >= 0 && pattern.indexOf('*') != pattern.length() - 1) {
            throw new InvalidInputException(
                    "caching pattern '" + pattern + "' must be an entry point or a prefix ending in '*'");
        }
    }
}
