package dev.cairn.cli.options;

import java.util.Locale;
import java.util.regex.Pattern;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;

/**
 * A node as a person names it on the command line: its PK ({@code 42} or {@code pk:42}), its UUID, or a
 * unique prefix of the UUID of at least 4 hex digits ({@code 0190c1a2}, or {@code uuid:0190} to read digits
 * as a prefix). A plain number is a PK when a node has it, else a UUID prefix (as verdi tries them in turn).
 * The server names nodes by UUID only: {@link #resolve} turns a PK into the UUID with one query.
 */
public record NodeRef(String text) {

    /** The description of a node parameter in a command's help. */
    public static final String HELP =
            "A node: its PK (42), UUID, or a unique prefix of the UUID (at least 4 hex digits).";

    private static final Pattern DIGITS = Pattern.compile("[0-9]+");
    private static final Pattern UUID_PREFIX = Pattern.compile("[0-9a-f-]{4,36}");

    /** The picocli converter: checks the form, so that a malformed ref is a usage error before any request. */
    public static final class Converter implements ITypeConverter<NodeRef> {
        @Override
        public NodeRef convert(String value) {
            try {
                return NodeRef.parse(value);
            } catch (CliException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    public static NodeRef parse(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        String body = v.startsWith("pk:") || v.startsWith("uuid:") ? v.substring(v.indexOf(':') + 1) : v;
        boolean ok = v.startsWith("pk:")
                ? DIGITS.matcher(body).matches()
                : DIGITS.matcher(body).matches() && !v.startsWith("uuid:")
                        || UUID_PREFIX.matcher(body).matches();
        if (!ok) {
            throw CliException.usage("'" + value + "' is not a node: give its PK (42), its UUID or a prefix of the"
                    + " UUID of at least 4 hex digits (0190c1a2)");
        }
        return new NodeRef(v);
    }

    /** Whether this names a PK and nothing else ({@code pk:42}, or a number shorter than a prefix). */
    private boolean pkOnly() {
        return text.startsWith("pk:") || DIGITS.matcher(text).matches() && text.length() < 4;
    }

    /** The node's UUID, the unique prefix or {@code pk:42} the server resolves, for the server's URLs. */
    public String resolve(CairnClient client) {
        if (text.startsWith("uuid:")) {
            return text.substring(5);
        }
        if (text.startsWith("pk:") || DIGITS.matcher(text).matches()) {
            long pk;
            try {
                pk = Long.parseLong(text.startsWith("pk:") ? text.substring(3) : text);
            } catch (NumberFormatException e) {
                throw CliException.usage("'" + text + "' is too large for a PK");
            }
            if (pkOnly()) {
                return "pk:" + pk; // the server resolves it: no query first
            }
            String uuid = uuidOfPk(client, pk);
            if (uuid != null) {
                return uuid;
            }
            if (pkOnly() || !prefixExists(client, text)) {
                throw new CliException(
                        ExitCodes.NOT_FOUND,
                        "no node has the PK " + pk + (pkOnly() ? "" : " nor a UUID beginning " + text),
                        null);
            }
        }
        return text;
    }

    /** The node's URL path on the server: {@code /api/v1/nodes/<uuid>}. */
    public String path(CairnClient client) {
        return "/api/v1/nodes/" + segment(client);
    }

    /** The node as one path segment of the server's URLs: its UUID, or the unique prefix the server resolves. */
    public String segment(CairnClient client) {
        return CairnClient.segment(resolve(client));
    }

    private static boolean prefixExists(CairnClient client, String prefix) {
        ObjectNode vertex = JsonTrees.object();
        vertex.put("tag", "n");
        vertex.put("entity", "node");
        vertex.putObject("filters").putObject("uuid").put("like", prefix + "%");
        vertex.putArray("project").add("id");
        ObjectNode query = JsonTrees.object();
        query.putArray("path").add(vertex);
        return !client.post("/api/v1/query?limit=1", query).path("items").isEmpty();
    }

    /** The UUID of the node with this PK, or null when none has it. */
    public static String uuidOfPk(CairnClient client, long pk) {
        ObjectNode vertex = JsonTrees.object();
        vertex.put("tag", "n");
        vertex.put("entity", "node");
        vertex.putObject("filters").put("id", pk);
        vertex.putArray("project").add("uuid");
        ObjectNode query = JsonTrees.object();
        query.putArray("path").add(vertex);
        JsonNode items = client.post("/api/v1/query?limit=1", query).path("items");
        return items.isEmpty() ? null : items.get(0).path("n").path("uuid").asString();
    }

    @Override
    public String toString() {
        return text;
    }
}
