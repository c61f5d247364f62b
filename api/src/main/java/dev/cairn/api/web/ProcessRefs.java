package dev.cairn.api.web;

import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

import org.springframework.stereotype.Component;

import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.views.NodeIdentity;
import dev.cairn.storage.views.NodeViews;

/**
 * Processes named in a URL: a node reference ({@link NodeRefs}: a uuid, a unique prefix of
 * one, or pk:42) that must name a process node. A data node is a 404 that says what it is.
 */
@Component
public class ProcessRefs {

    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private final NodeRefs refs;
    private final NodeViews nodes;

    ProcessRefs(NodeRefs refs, Storage storage) {
        this.refs = refs;
        this.nodes = storage.nodes();
    }

    /** The process node's id. */
    public long id(String ref) {
        // a whole uuid, the usual case, costs one statement; a prefix is resolved first
        NodeIdentity node = UUID_TEXT.matcher(ref).matches()
                ? nodes.identity(UUID.fromString(ref.toLowerCase(Locale.ROOT)))
                        .orElseThrow(() -> new NotFoundException("no node has the uuid " + ref))
                : refs.identity(ref);
        if (!node.isProcess()) {
            throw new NotFoundException("node " + node.uuid() + " is not a process but data (" + node.nodeType()
                    + "); GET /api/v1/processes lists the processes");
        }
        return node.id();
    }
}
