package dev.cairn.api.web;

import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

import org.springframework.stereotype.Component;

import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.views.NodeIdentity;
import dev.cairn.storage.views.NodeViews;

/**
 * Nodes named in a URL: by uuid, or by a unique prefix of it (at least {@value #MIN_PREFIX}
 * hex digits, dashes as in the uuid), as AiiDA's API resolves them, or by PK as {@code pk:42}
 * (the number people type; the prefix keeps it apart from a uuid prefix of digits). An unknown
 * one is a 404; a prefix that names more than one node is a 409 naming some of them.
 */
@Component
public class NodeRefs {

    static final int MIN_PREFIX = 4;
    private static final Pattern PREFIX = Pattern.compile("[0-9a-f-]{" + MIN_PREFIX + ",36}");
    private static final Pattern PK = Pattern.compile("pk:[0-9]{1,18}");
    /** How many nodes a refusal of an ambiguous prefix names. */
    private static final int NAMED = 5;

    private final Storage storage;
    private final NodeViews nodes;

    NodeRefs(Storage storage) {
        this.storage = storage;
        this.nodes = storage.nodes();
    }

    /** The node's id. */
    public long id(String ref) {
        return identity(ref).id();
    }

    /** The node's id, uuid, type and label: one statement for a whole uuid or a PK, one per prefix. */
    public NodeIdentity identity(String ref) {
        String r = ref.toLowerCase(Locale.ROOT);
        if (PK.matcher(r).matches()) {
            long pk = Long.parseLong(r.substring(3));
            return nodes.identity(pk).orElseThrow(() -> new NotFoundException("no node has the PK " + pk));
        }
        if (!PREFIX.matcher(r).matches()) {
            throw new InvalidInputException("'" + ref + "' is not a node's uuid, a prefix of one (at least "
                    + MIN_PREFIX + " hex digits) nor a PK (pk:42)");
        }
        if (r.length() == 36) {
            UUID uuid = UUID.fromString(r);
            return nodes.identity(uuid).orElseThrow(() -> new NotFoundException("no node has the uuid " + uuid));
        }
        UuidPrefix range = UuidPrefix.of(r)
                .orElseThrow(() -> new NotFoundException("no node has a uuid beginning " + r
                        + " (a uuid's dashes come after its 8th, 12th, 16th and 20th digits)"));
        List<NodeIdentity> found = nodes.withUuidBetween(range.lowest(), range.highest(), NAMED);
        if (found.isEmpty()) {
            throw new NotFoundException("no node has a uuid beginning " + r);
        }
        if (found.size() > 1) {
            throw new ConflictException("the prefix " + r + " names more than one node ("
                    + String.join(
                            ", ", found.stream().map(n -> n.uuid().toString()).toList())
                    + (found.size() == NAMED ? ", …" : "") + "): give more of the uuid");
        }
        return found.getFirst();
    }

    /** The node itself. */
    public Node node(String ref) {
        return storage.graph().load(id(ref));
    }
}
