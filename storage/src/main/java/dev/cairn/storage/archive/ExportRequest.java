package dev.cairn.storage.archive;

import java.util.Arrays;

import dev.cairn.storage.graph.traversal.TraversalRules;

/**
 * What an export holds: everything, or the closure under {@code rules} (the EXPORT traversal rules,
 * with their toggles) of the nodes, groups' members, computers' nodes and codes given; and whether
 * comments, logs and authinfos travel with them.
 *
 * @param everything  the whole installation (the id lists are then empty)
 * @param nodes       node ids (codes are nodes)
 * @param groups      group ids: their members are seeds, and the groups themselves are exported
 * @param computers   computer ids: the nodes run on them are seeds
 */
public record ExportRequest(
        boolean everything,
        long[] nodes,
        long[] groups,
        long[] computers,
        TraversalRules rules,
        boolean includeComments,
        boolean includeLogs,
        boolean includeAuthinfos) {

    public ExportRequest {
        nodes = nodes.clone();
        groups = groups.clone();
        computers = computers.clone();
        if (everything && (nodes.length + groups.length + computers.length) > 0) {
            throw new IllegalArgumentException("an export of everything takes no starting set");
        }
        if (!rules.name().equals(TraversalRules.EXPORT.name())) {
            throw new IllegalArgumentException(
                    "an export follows the EXPORT rules (with their toggles), not " + rules.name());
        }
    }

    /** Everything, with comments and logs, without authinfos. */
    public static ExportRequest ofEverything() {
        return new ExportRequest(true, new long[0], new long[0], new long[0], TraversalRules.EXPORT, true, true, false);
    }

    /** The closure of a starting set under the EXPORT rules, with comments and logs, without authinfos. */
    public static ExportRequest of(long[] nodes, long[] groups, long[] computers) {
        if (nodes.length + groups.length + computers.length == 0) {
            throw new IllegalArgumentException(
                    "nothing to export: give nodes, groups, computers or codes, or ask" + " for everything");
        }
        return new ExportRequest(false, nodes, groups, computers, TraversalRules.EXPORT, true, true, false);
    }

    /** This request following {@code rules} to the nodes it takes along. */
    public ExportRequest withRules(TraversalRules rules) {
        return new ExportRequest(
                everything, nodes, groups, computers, rules, includeComments, includeLogs, includeAuthinfos);
    }

    /** This request with or without the comments of the exported nodes. */
    public ExportRequest withComments(boolean include) {
        return new ExportRequest(everything, nodes, groups, computers, rules, include, includeLogs, includeAuthinfos);
    }

    /** This request with or without the log records of the exported processes. */
    public ExportRequest withLogs(boolean include) {
        return new ExportRequest(
                everything, nodes, groups, computers, rules, includeComments, include, includeAuthinfos);
    }

    /** This request with or without the computers' authentication details. */
    public ExportRequest withAuthinfos(boolean include) {
        return new ExportRequest(everything, nodes, groups, computers, rules, includeComments, includeLogs, include);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExportRequest r
                && everything == r.everything
                && Arrays.equals(nodes, r.nodes)
                && Arrays.equals(groups, r.groups)
                && Arrays.equals(computers, r.computers)
                && rules.equals(r.rules)
                && includeComments == r.includeComments
                && includeLogs == r.includeLogs
                && includeAuthinfos == r.includeAuthinfos;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(nodes) * 31 + Arrays.hashCode(groups) * 17 + Arrays.hashCode(computers);
    }

    @Override
    public String toString() {
        return everything
                ? "everything"
                : Arrays.toString(nodes) + " nodes, " + Arrays.toString(groups) + " groups, "
                        + Arrays.toString(computers) + " computers";
    }
}
