package dev.cairn.storage.archive;

import java.util.Locale;

/**
 * How an import merges what the installation has already.
 *
 * @param mergeExtras AiiDA's three letters for the extras of nodes already here: keys only here keep or
 *                    drop ({@code k}/{@code n}), keys only in the archive create or skip ({@code c}/{@code n}),
 *                    keys in both leave, update or delete ({@code l}/{@code u}/{@code d})
 * @param comments    what a comment already here becomes when the archive has it too
 * @param groupLabel  the label of the group the imported nodes go into; {@code null} for {@code import-<time>}
 */
public record ImportOptions(String mergeExtras, CommentMerge comments, String groupLabel) {

    /** The extras merge modes: the one check of them, which the REST API's document shows too. */
    public static final String MERGE_EXTRAS_PATTERN = "[kn][cn][lud]";

    /** What a comment already here becomes when the archive has it too. */
    public enum CommentMerge {
        /** Keep ours. */
        LEAVE,
        /** Take the archive's when it was changed later than ours. */
        NEWEST,
        /** Take the archive's. */
        OVERWRITE;

        /**
         * The mode named {@code name}, in any case.
         *
         * @throws InvalidArchiveOptionException if no mode has that name
         */
        public static CommentMerge parse(String name) {
            for (CommentMerge m : values()) {
                if (m.name().equalsIgnoreCase(name)) {
                    return m;
                }
            }
            throw new InvalidArchiveOptionException(
                    "unknown comment merge mode '" + name + "'; use leave, newest or overwrite");
        }

        /** The mode's name in options and JSON: lower case. */
        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public ImportOptions {
        if (mergeExtras == null || !mergeExtras.matches(MERGE_EXTRAS_PATTERN)) {
            throw new InvalidArchiveOptionException("merge mode for extras '" + mergeExtras + "' is not three letters"
                    + " of [k|n][c|n][l|u|d], e.g. kcl (keep ours, create new, leave ours on a collision)");
        }
        if (comments == null) {
            throw new InvalidArchiveOptionException("a comment merge mode is required: leave, newest or overwrite");
        }
        if (groupLabel != null && groupLabel.isBlank()) {
            throw new InvalidArchiveOptionException("the import group's label is blank");
        }
    }

    /** AiiDA's defaults: extras {@code kcl}, comments {@code leave}, a group named by the time. */
    public static ImportOptions defaults() {
        return new ImportOptions("kcl", CommentMerge.LEAVE, null);
    }

    /** These options merging the extras of nodes already here as the letters of {@code mode} say. */
    public ImportOptions withMergeExtras(String mode) {
        return new ImportOptions(mode, comments, groupLabel);
    }

    /** These options merging the comments of nodes already here as {@code mode} says. */
    public ImportOptions withComments(CommentMerge mode) {
        return new ImportOptions(mergeExtras, mode, groupLabel);
    }

    /** These options putting the imported nodes in the group labelled {@code label} (null: none). */
    public ImportOptions withGroupLabel(String label) {
        return new ImportOptions(mergeExtras, comments, label);
    }

    boolean keepOnlyOurs() {
        return mergeExtras.charAt(0) == 'k';
    }

    boolean createOnlyTheirs() {
        return mergeExtras.charAt(1) == 'c';
    }

    char onCollision() {
        return mergeExtras.charAt(2);
    }
}
