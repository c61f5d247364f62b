package dev.cairn.storage.archive;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.cairn.storage.db.JsonText;
import dev.cairn.storage.db.internal.CopyRows;
import dev.cairn.storage.graph.StoredRowHashes;

/**
 * A checked row of an archive's nodes part ({@link NodeIntake}): its line number, uuid, parsed fields, its user's and computer's ids here, and, once
 * {@link #prepare prepared}, its hash (data only) and its columns as COPY text.
 */
final class IntakeRow {

    /** A computer here, as a row names it. */
    record Computer(long id, UUID uuid) {}

    final long ord;
    final UUID uuid;
    final String nodeType;
    /** For the merge, if the node turns out to be here already. */
    final Object extras;

    final long userId;
    final Computer computer;
    /** The parsed row, let go once prepared: a batch of parsed rows weighs several times its text. */
    private Map<String, Object> doc;

    private String hash;
    private String columns;

    IntakeRow(long ord, UUID uuid, Map<String, Object> doc, long userId, Computer computer) {
        this.ord = ord;
        this.uuid = uuid;
        this.doc = doc;
        this.nodeType = (String) doc.get("node_type");
        this.extras = doc.get("extras") == null ? Map.of() : doc.get("extras");
        this.userId = userId;
        this.computer = computer;
    }

    String nodeType() {
        return nodeType;
    }

    boolean process() {
        return nodeType.startsWith("process.");
    }

    Object field(String name) {
        Object value = doc.get(name);
        return value == null ? Map.of() : value;
    }

    String text(String name, String absent) {
        Object value = doc.get(name);
        return value == null ? absent : NodeRowChecks.text(value);
    }

    /**
     * Makes the hash (of a data node: a process's waits for its inputs) and the columns from uuid to
     * repository_metadata, what a new node needs; safe to call on any thread, once.
     */
    IntakeRow prepare() {
        if (columns != null) {
            return this;
        }
        if (!process()) {
            hash = StoredRowHashes.hash(
                    nodeType(),
                    text("process_type", null),
                    map(field("attributes")),
                    map(field("repository_metadata")),
                    computer == null ? null : computer.uuid,
                    Map.of());
        }
        StringBuilder out = new StringBuilder(512);
        out.append(uuid).append('\t');
        CopyRows.escape(nodeType(), out);
        out.append('\t');
        CopyRows.escape(text("process_type", null), out);
        out.append('\t');
        CopyRows.escape(text("label", ""), out);
        out.append('\t');
        CopyRows.escape(text("description", ""), out);
        out.append('\t');
        CopyRows.escape((String) doc.get("ctime"), out);
        out.append('\t');
        CopyRows.escape((String) doc.get("mtime"), out);
        out.append('\t').append(userId).append('\t');
        out.append(computer == null ? "\\N" : Long.toString(computer.id()));
        for (String json : List.of("attributes", "extras", "repository_metadata")) {
            out.append('\t');
            JsonText.writeForCopy(field(json), out);
        }
        columns = out.toString();
        doc = null;
        return this;
    }

    /** The node's hash, once prepared; null for a process. */
    String hash() {
        return hash;
    }

    /** The columns from uuid to repository_metadata in COPY's text form, once prepared. */
    String columns() {
        return columns;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }
}
