package dev.cairn.engine.scheduler;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * SLURM's compressed host lists, as squeue's {@code %N} prints them ({@code "nid00[684-685,722],login1"}),
 * expanded into machine names. A bracket holds numbers and ranges, whose zero padding the names keep; a
 * name may have several brackets ({@code "rack[1-2]-n[01-02]"}). A list this cannot read is kept whole as
 * one name: the names only inform, and a poll must not fail on them.
 */
final class SlurmHostlist {

    /** More names than any cluster has: a list that says more is kept whole rather than expanded. */
    private static final int MAX_NAMES = 100_000;

    private SlurmHostlist() {}

    /** The machine names, in order and without repeats; null for a blank list (a job not yet running). */
    static List<String> expand(String hostlist) {
        if (hostlist == null || hostlist.isBlank()) {
            return null;
        }
        var names = new LinkedHashSet<String>();
        try {
            for (String item : topLevelItems(hostlist.strip())) {
                expandInto(item, names);
            }
        } catch (IllegalArgumentException unreadable) {
            return List.of(hostlist.strip());
        }
        return List.copyOf(names);
    }

    /** The list split at the commas outside brackets. */
    private static List<String> topLevelItems(String hostlist) {
        var items = new ArrayList<String>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < hostlist.length(); i++) {
            char c = hostlist.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                items.add(hostlist.substring(start, i));
                start = i + 1;
            }
        }
        items.add(hostlist.substring(start));
        return items;
    }

    private static void expandInto(String item, LinkedHashSet<String> names) {
        int open = item.indexOf('[');
        if (open < 0) {
            if (!item.isBlank()) {
                names.add(item.strip());
            }
            if (names.size() > MAX_NAMES) {
                throw new IllegalArgumentException("more than " + MAX_NAMES + " names");
            }
            return;
        }
        int close = item.indexOf(']', open);
        if (close < 0) {
            throw new IllegalArgumentException("a '[' without its ']'");
        }
        String prefix = item.substring(0, open);
        String rest = item.substring(close + 1);
        for (String part : item.substring(open + 1, close).split(",")) {
            String[] range = part.strip().split("-", 2);
            long from = Long.parseLong(range[0].strip());
            long to = range.length == 2 ? Long.parseLong(range[1].strip()) : from;
            for (long n = from; n <= to; n++) {
                String digits = Long.toString(n);
                String padded = "0".repeat(Math.max(0, range[0].strip().length() - digits.length())) + digits;
                expandInto(prefix + padded + rest, names);
            }
        }
    }
}
