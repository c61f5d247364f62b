package dev.cairn.storage.archive;

/**
 * The SQL of an export: for each part, the query of its rows as JSON (one {@code json_build_object}
 * per row, in the shapes of {@code docs/archive-format.md}) and of their count, over the nodes of the
 * export (all, or those of a traversal's table).
 */
final class ExportQueries {

    /** The keys a node's file tree names: strings under "k" at any depth (a directory named k is an object). */
    static final String KEYS_PATH = "'$.**.k ? (@.type() == \"string\")'";

    private final ExportRequest request;
    /** {@code n.id} is among the exported nodes. */
    private final String inScope;

    ExportQueries(ExportRequest request, String closureTable) {
        this.request = request;
        this.inScope = closureTable == null ? "TRUE" : "n.id IN (SELECT id FROM " + closureTable + ")";
    }

    String count(ArchivePart part) {
        return part == ArchivePart.OBJECTS
                ? "SELECT count(*) FROM (" + objectKeys() + ") k"
                : "SELECT count(*) FROM (" + rows(part) + ") r";
    }

    String unsealed() {
        return "SELECT n.uuid::text, n.node_type, count(*) OVER () FROM node n WHERE " + inScope
                + " AND n.node_type LIKE 'process.%' AND NOT coalesce((n.attributes ->> 'sealed')::boolean, false)"
                + " ORDER BY n.id LIMIT 10";
    }

    String objectKeys() {
        return "SELECT DISTINCT jsonb_path_query(n.repository_metadata, " + KEYS_PATH + ") #>> '{}' AS k"
                + " FROM node n WHERE " + inScope + " AND n.repository_metadata <> '{}'";
    }

    String rows(ArchivePart part) {
        return switch (part) {
            case USERS ->
                "SELECT json_build_object('email', u.email, 'first_name', u.first_name, 'last_name',"
                        + " u.last_name, 'institution', u.institution) FROM app_user u WHERE u.id IN (" + userIds()
                        + ") ORDER BY u.id";
            case COMPUTERS ->
                "SELECT json_build_object('uuid', c.uuid, 'label', c.label, 'hostname', c.hostname,"
                        + " 'description', c.description, 'transport_type', c.transport_type, 'scheduler_type',"
                        + " c.scheduler_type, 'metadata', c.metadata) FROM computer c WHERE c.id IN (" + computerIds()
                        + ") ORDER BY c.id";
            case AUTHINFOS ->
                request.includeAuthinfos()
                        ? "SELECT json_build_object('user', u.email, 'computer', c.uuid, 'auth_params', a.auth_params,"
                                + " 'metadata', a.metadata, 'enabled', a.enabled) FROM authinfo a"
                                + " JOIN app_user u ON u.id = a.user_id JOIN computer c ON c.id = a.computer_id"
                                + " WHERE a.computer_id IN (" + computerIds() + ") ORDER BY a.id"
                        : none();
            case GROUPS ->
                "SELECT json_build_object('uuid', g.uuid, 'label', g.label, 'type_string', g.type_string,"
                        + " 'description', g.description, 'time', g.time, 'user', u.email, 'extras', g.extras)"
                        + " FROM node_group g JOIN app_user u ON u.id = g.user_id WHERE g.id IN (" + groupIds()
                        + ") ORDER BY g.id";
            case NODES ->
                "SELECT json_build_object('uuid', n.uuid, 'node_type', n.node_type, 'process_type',"
                        + " n.process_type, 'label', n.label, 'description', n.description, 'ctime', n.ctime, 'mtime',"
                        + " n.mtime, 'user', u.email, 'computer', c.uuid, 'attributes', n.attributes, 'extras',"
                        + " n.extras, 'repository_metadata', n.repository_metadata) FROM node n"
                        + " JOIN app_user u ON u.id = n.user_id LEFT JOIN computer c ON c.id = n.computer_id WHERE "
                        + inScope + " ORDER BY n.id";
            case LINKS ->
                "SELECT json_build_object('input', i.uuid, 'output', o.uuid, 'type', l.type, 'label',"
                        + " l.label) FROM link l JOIN node i ON i.id = l.input_id JOIN node o ON o.id = l.output_id"
                        + " WHERE " + scoped("i") + " AND " + scoped("o") + " ORDER BY l.id";
            case GROUP_MEMBERS ->
                "SELECT json_build_object('group', g.uuid, 'node', n.uuid) FROM group_member m"
                        + " JOIN node_group g ON g.id = m.group_id JOIN node n ON n.id = m.node_id WHERE m.group_id IN ("
                        + groupIds() + ") AND " + inScope + " ORDER BY m.group_id, m.node_id";
            case COMMENTS ->
                request.includeComments()
                        ? "SELECT json_build_object('uuid', cm.uuid, 'node', n.uuid, 'user', u.email, 'ctime', cm.ctime,"
                                + " 'mtime', cm.mtime, 'content', cm.content) FROM comment cm"
                                + " JOIN node n ON n.id = cm.node_id JOIN app_user u ON u.id = cm.user_id WHERE "
                                + inScope + " ORDER BY cm.id"
                        : none();
            case LOGS ->
                request.includeLogs()
                        ? "SELECT json_build_object('uuid', lg.uuid, 'node', n.uuid, 'time', lg.time, 'logger_name',"
                                + " lg.logger_name, 'level_name', lg.level_name, 'message', lg.message, 'metadata',"
                                + " lg.metadata) FROM log lg JOIN node n ON n.id = lg.node_id WHERE " + inScope
                                + " ORDER BY lg.id"
                        : none();
            case OBJECTS -> throw new IllegalArgumentException("objects are no rows");
        };
    }

    private String scoped(String alias) {
        return inScope.equals("TRUE") ? "TRUE" : inScope.replace("n.id", alias + ".id");
    }

    private static String none() {
        return "SELECT NULL::json WHERE FALSE";
    }

    private String computerIds() {
        return "SELECT n.computer_id FROM node n WHERE " + inScope + " AND n.computer_id IS NOT NULL";
    }

    private String groupIds() {
        if (request.everything()) {
            return "SELECT id FROM node_group";
        }
        StringBuilder ids = new StringBuilder("SELECT unnest('{");
        for (int i = 0; i < request.groups().length; i++) {
            ids.append(i == 0 ? "" : ",").append(request.groups()[i]);
        }
        return ids.append("}'::bigint[])").toString();
    }

    /** Everyone a row of the export names: owners of nodes and groups, authors of comments, authinfos' users. */
    private String userIds() {
        StringBuilder ids = new StringBuilder("SELECT n.user_id FROM node n WHERE " + inScope
                + " UNION SELECT g.user_id FROM node_group g WHERE g.id IN (" + groupIds() + ")");
        if (request.includeComments()) {
            ids.append(" UNION SELECT cm.user_id FROM comment cm JOIN node n ON n.id = cm.node_id WHERE ")
                    .append(inScope);
        }
        if (request.includeAuthinfos()) {
            ids.append(" UNION SELECT a.user_id FROM authinfo a WHERE a.computer_id IN (")
                    .append(computerIds())
                    .append(")");
        }
        return ids.toString();
    }
}
