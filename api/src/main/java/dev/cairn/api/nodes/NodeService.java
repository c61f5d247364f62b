package dev.cairn.api.nodes;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

import org.springframework.stereotype.Service;

import dev.cairn.api.web.NodeRefs;
import dev.cairn.api.web.Page;
import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.views.NodeFileTree;
import dev.cairn.storage.views.NodeView;
import dev.cairn.storage.views.NodeViews;

/**
 * The nodes of the provenance graph, for every surface of the server: one node as the API shows it,
 * lists of nodes (all of them, a node's links, its ancestors and descendants), changes to what stays
 * mutable of a node, rehashing, and deletion with what the deletion rules take along.
 *
 * <p>A node is named as a client names it: its uuid, a unique prefix of it, or {@code pk:42}. One
 * named by its whole uuid costs one statement ({@link NodeViews}); a prefix costs one more to resolve.
 * Each change is one transaction of the graph's store.
 */
@Service
public class NodeService {

    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private final GraphStore graph;
    private final NodeViews views;
    private final NodeRefs refs;
    private final NodeLists lists;
    private final NodeDeletion deletion;

    NodeService(Storage storage, NodeRefs refs, NodeLists lists, NodeDeletion deletion) {
        this.graph = storage.graph();
        this.views = storage.nodes();
        this.refs = refs;
        this.lists = lists;
        this.deletion = deletion;
    }

    /** The node's id; a 404 when no node has it, a 409 when a prefix names several. */
    public long id(String ref) {
        return refs.id(ref);
    }

    /** The node with this id (one just stored), every attribute and extra. */
    public NodeDetails read(long id) {
        return details(views.read(id, null, null).orElseThrow(() -> new NotFoundException("node " + id + " is gone")));
    }

    /**
     * The node {@code ref} names.
     *
     * @param attributes the attribute keys to show, or null for all
     * @param extras     the extra keys to show, or null for all
     */
    public NodeDetails read(String ref, List<String> attributes, List<String> extras) {
        UUID uuid = wholeUuid(ref);
        if (uuid == null) {
            long id = refs.id(ref);
            return details(views.read(id, attributes, extras)
                    .orElseThrow(() -> new NotFoundException("node " + id + " is gone")));
        }
        return details(views.read(uuid, attributes, extras)
                .orElseThrow(() -> new NotFoundException("no node has the uuid " + uuid)));
    }

    /** The files of the node {@code ref} names, from its row alone: a download's one statement. */
    public NodeFileTree files(String ref) {
        UUID uuid = wholeUuid(ref);
        if (uuid == null) {
            long id = refs.id(ref);
            return views.files(id).orElseThrow(() -> new NotFoundException("node " + id + " is gone"));
        }
        return views.files(uuid).orElseThrow(() -> new NotFoundException("no node has the uuid " + uuid));
    }

    /** Stores a new data node as the user {@code userId}, with its files; the node as stored. */
    public NodeDetails create(Data node, long userId) {
        return read(graph.forUser(userId).store(node).id());
    }

    /** Changes the node's label, description and extras as {@code patch} says, in one transaction. */
    public NodeDetails update(String ref, NodePatch patch) {
        long id = refs.id(ref);
        graph.update(id, patch.label(), patch.description(), patch.extras(), patch.removeExtras());
        return read(id);
    }

    /** Computes the node's hash again from what is stored, and stores it when it differs. */
    public Rehashed rehash(String ref) {
        long id = refs.id(ref);
        GraphStore.Rehash done = graph.rehash(id);
        return new Rehashed(read(id).uuid().toString(), done.after(), done.before(), done.changed());
    }

    /**
     * Deletes the nodes {@code nodes} name with what the deletion rules take along, or with
     * {@code dryRun} tells what that would be.
     *
     * @param disabled the rules switched off: {@code create_forward}, {@code call_calc_forward}, {@code call_work_forward}
     */
    public NodeDeletion.Report delete(List<String> nodes, List<String> disabled, boolean dryRun) {
        if (nodes == null || nodes.isEmpty()) {
            throw new InvalidInputException("name the nodes to delete: ?node=<uuid or prefix> (repeatable)");
        }
        return deletion.run(nodes, disabled == null ? List.of() : disabled, dryRun);
    }

    /** A page of every node {@code selection} keeps, in {@code order}, after {@code cursor} (a page's {@code next}). */
    public Page<NodeSummary> list(NodeSelection selection, NodeOrder order, String cursor, int limit, boolean count) {
        return lists.nodes(new NodeLists.Scope.All(), selection, order, cursor, limit, count);
    }

    /**
     * A page of the links into ({@code incoming}) or out of the node {@code ref} names, in the order they
     * were made, each with the node at its other end.
     *
     * @param linkTypes only links of these types, or null for all
     * @param linkLabel only links with this label, or null for all
     */
    public Page<LinkedNode> links(
            String ref,
            boolean incoming,
            Set<LinkType> linkTypes,
            String linkLabel,
            NodeSelection selection,
            String cursor,
            int limit,
            boolean count) {
        var scope = new NodeLists.Scope.Linked(refs.id(ref), incoming, linkTypes, linkLabel);
        return lists.links(scope, selection, cursor, limit, count);
    }

    /**
     * A page of the ancestors (or descendants) of the node {@code ref} names, each once however many
     * paths lead to it.
     *
     * @param depth     the most links away, or null for any
     * @param linkTypes the links walked, or null for the provenance's (create and input_calc)
     */
    public Page<NodeSummary> walk(
            String ref,
            boolean ancestors,
            Integer depth,
            Set<LinkType> linkTypes,
            NodeSelection selection,
            NodeOrder order,
            String cursor,
            int limit,
            boolean count) {
        requireDepth(depth);
        var scope = new NodeLists.Scope.Walked(refs.id(ref), ancestors, depth, linkTypes);
        return lists.nodes(scope, selection, order, cursor, limit, count);
    }

    /** Refuses a depth that walks no link: a depth is 1 or more, or null for any. */
    static Integer requireDepth(Integer depth) {
        if (depth != null && depth < 1) {
            throw new InvalidInputException("depth " + depth + " walks no link; give 1 or more, or leave it out");
        }
        return depth;
    }

    /** The uuid a ref spells out whole, else null (a prefix or a PK). */
    private static UUID wholeUuid(String ref) {
        return ref.length() == 36 && UUID_TEXT.matcher(ref).matches()
                ? UUID.fromString(ref.toLowerCase(Locale.ROOT))
                : null;
    }

    private static NodeDetails details(NodeView n) {
        return new NodeDetails(
                n.uuid(),
                n.id(),
                n.nodeType(),
                n.processType(),
                n.label(),
                n.description(),
                n.ctime(),
                n.mtime(),
                n.userEmail(),
                n.computerUuid() == null ? null : new NodeDetails.ComputerRef(n.computerUuid(), n.computerLabel()),
                n.hash(),
                n.attributes(),
                n.extras(),
                new NodeDetails.Files(
                        n.files().keys().size(),
                        n.files().isEmpty() ? List.of() : n.files().list("")),
                new NodeDetails.Links(n.incoming(), n.outgoing()));
    }
}
