package dev.cairn.storage.archive;

import java.util.Arrays;
import java.util.List;

/**
 * The parts of an archive, in the order they are written and read: the rows of each table (one JSON
 * object per row, see {@code docs/archive-format.md}), then the objects. A row refers to other rows by
 * uuid (users by email), never by an installation's ids, so an archive means the same everywhere.
 */
public enum ArchivePart {
    USERS("users"),
    COMPUTERS("computers"),
    AUTHINFOS("authinfos"),
    GROUPS("groups"),
    NODES("nodes"),
    LINKS("links"),
    GROUP_MEMBERS("group_members"),
    COMMENTS("comments"),
    LOGS("logs"),
    OBJECTS("objects");

    /** The row parts, in order (every part but {@link #OBJECTS}). */
    public static final List<ArchivePart> ROWS =
            List.of(USERS, COMPUTERS, AUTHINFOS, GROUPS, NODES, LINKS, GROUP_MEMBERS, COMMENTS, LOGS);

    private final String key;

    ArchivePart(String key) {
        this.key = key;
    }

    /** The part's name in the header, the counts and the format's documentation. */
    public String key() {
        return key;
    }

    /** The part named {@code key}; fails naming the known ones. */
    public static ArchivePart ofKey(String key) {
        for (ArchivePart p : values()) {
            if (p.key.equals(key)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown archive part '" + key + "'; known: "
                + Arrays.stream(values()).map(ArchivePart::key).toList());
    }
}
