package dev.cairn.storage.views;

import java.time.OffsetDateTime;
import java.util.List;

/**
 * Which processes a list shows: every criterion given must hold; those left null do not count.
 *
 * @param ids        these processes, by node id
 * @param states     in one of these states (created, waiting, finished, excepted, killed)
 * @param type       of this entry point, or of those it begins
 * @param nodeTypes  of one of these node types (a kind of process: {@code process.workflow.workchain.WorkChainNode.})
 * @param label      with this label, or a label it begins
 * @param exitStatus finished with this exit status
 * @param failed     true: finished with a non-zero exit status; false: anything else
 * @param paused     paused, or not
 * @param since      launched at or after this time
 * @param until      launched before this time
 * @param callerId   called by this process, by node id
 * @param topLevel   true: called by no process; false: called by one
 * @param group      in the group of this label (of type core)
 */
public record ProcessCriteria(
        List<Long> ids,
        List<String> states,
        Match type,
        List<String> nodeTypes,
        Match label,
        Integer exitStatus,
        Boolean failed,
        Boolean paused,
        OffsetDateTime since,
        OffsetDateTime until,
        Long callerId,
        Boolean topLevel,
        String group) {

    /** No criterion: every process. */
    public static final ProcessCriteria ANY =
            new ProcessCriteria(null, null, null, null, null, null, null, null, null, null, null, null, null);

    /** The live processes (created or waiting), paused or not as {@code paused} says (null: either). */
    public static ProcessCriteria live(Boolean paused) {
        return new ProcessCriteria(
                null,
                List.of("created", "waiting"),
                null,
                null,
                null,
                null,
                null,
                paused,
                null,
                null,
                null,
                null,
                null);
    }

    /** A text that must equal a column, or (as a prefix) begin it. */
    public record Match(String text, boolean prefix) {

        /** Matches {@code text} exactly. */
        public static Match exactly(String text) {
            return new Match(text, false);
        }

        /** Matches text that begins with {@code prefix}. */
        public static Match beginning(String prefix) {
            return new Match(prefix, true);
        }
    }
}
