package dev.cairn.api.pages.graph;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.cairn.storage.graph.traversal.Neighbourhood;

/**
 * Turns the graph around a node into a drawing: a box per node, a count per folded fan-out, laid out
 * left to right by {@link LayeredLayout}. A fan-out opened in full is laid out as one block whose nodes
 * stand in a grid inside it, so the layout's work grows with the graph's shape, not with the size of
 * its fan-outs; and it is drawn as a frame with one link to it, its members' own links to the fan-out's
 * node bundled into that one: a browser draws thousands of nodes in a fraction of the time it takes to
 * draw as many links besides.
 */
final class GraphDrawing {

    /** Grid cells of an opened fan-out. */
    private static final double CELL_WIDTH = NodeLooks.PROCESS_WIDTH + 10;

    private static final double CELL_HEIGHT = NodeLooks.HEIGHT + 8;
    private static final double FOLD_WIDTH = 120;
    /** Room around a block's grid, and above it for its label. */
    private static final double BLOCK_MARGIN = 12;

    private GraphDrawing() {}

    static DrawnGraph draw(Neighbourhood.Result result, long centre, Set<Long> path) {
        Map<Long, Neighbourhood.Vertex> byId = new HashMap<>();
        for (Neighbourhood.Vertex v : result.vertices()) {
            byId.put(v.id(), v);
        }
        // the nodes of large opened fan-outs go into blocks; the rest are boxes of their own
        Map<Long, String> blockOf = new HashMap<>();
        List<LayeredLayout.Box> boxes = new ArrayList<>();
        Map<String, Block> blocks = new HashMap<>();
        for (Neighbourhood.Opened opened : result.opened()) {
            String id = "block:" + opened.fan().node() + (opened.fan().outgoing() ? ":out" : ":in");
            List<Long> members = opened.members().stream()
                    .filter(m -> byId.containsKey(m) && !blockOf.containsKey(m) && m != centre)
                    .toList();
            int columns = Math.max(1, (int) Math.ceil(Math.sqrt(members.size() / 8.0)));
            int rows = (int) Math.ceil((double) members.size() / columns);
            Block block = new Block(opened.fan(), members, columns, rows);
            blocks.put(id, block);
            members.forEach(m -> blockOf.put(m, id));
            boxes.add(new LayeredLayout.Box(
                    id, columns * CELL_WIDTH + 2 * BLOCK_MARGIN, rows * CELL_HEIGHT + 2 * BLOCK_MARGIN));
        }
        for (Neighbourhood.Vertex v : result.vertices()) {
            if (!blockOf.containsKey(v.id())) {
                boxes.add(new LayeredLayout.Box(
                        Long.toString(v.id()), NodeLooks.width(NodeLooks.kind(v.nodeType())), NodeLooks.HEIGHT));
            }
        }
        List<LayeredLayout.Arrow> arrows = new ArrayList<>();
        Set<String> arrowSeen = new HashSet<>();
        for (Neighbourhood.Edge e : result.edges()) {
            String from = blockOf.getOrDefault(e.from(), Long.toString(e.from()));
            String to = blockOf.getOrDefault(e.to(), Long.toString(e.to()));
            if (arrowSeen.add(from + ">" + to)) {
                arrows.add(new LayeredLayout.Arrow(from, to));
            }
        }
        for (Neighbourhood.Fold fold : result.folds()) {
            String id = foldId(byId.get(fold.fan().node()), fold.fan().outgoing());
            boxes.add(new LayeredLayout.Box(id, FOLD_WIDTH, NodeLooks.HEIGHT));
            String node = Long.toString(fold.fan().node());
            arrows.add(fold.fan().outgoing() ? new LayeredLayout.Arrow(node, id) : new LayeredLayout.Arrow(id, node));
        }
        Map<String, LayeredLayout.Point> at = LayeredLayout.layout(boxes, arrows);

        List<DrawnGraph.Node> nodes = new ArrayList<>();
        for (Neighbourhood.Vertex v : result.vertices()) {
            String kind = NodeLooks.kind(v.nodeType());
            LayeredLayout.Point p;
            String block = blockOf.get(v.id());
            if (block != null) {
                p = blocks.get(block).place(v.id(), at.get(block));
            } else {
                p = at.get(Long.toString(v.id()));
            }
            nodes.add(new DrawnGraph.Node(
                    v.uuid().toString(),
                    NodeLooks.label(v),
                    kind,
                    NodeLooks.type(v),
                    NodeLooks.state(v),
                    p.x(),
                    p.y(),
                    NodeLooks.width(kind),
                    NodeLooks.HEIGHT,
                    null,
                    path.contains(v.id()) ? Boolean.TRUE : null,
                    block == null
                            ? null
                            : blockId(
                                    byId.get(blocks.get(block).fan().node()),
                                    blocks.get(block).fan())));
        }
        List<DrawnGraph.Edge> edges = new ArrayList<>();
        Map<String, String> blockLinkType = new HashMap<>();
        int i = 0;
        for (Neighbourhood.Edge e : result.edges()) {
            boolean onPath = path.contains(e.from()) && path.contains(e.to());
            String block = bundledInto(e, blockOf, blocks);
            if (block != null) {
                blockLinkType.putIfAbsent(block, e.type().dbValue());
            }
            edges.add(new DrawnGraph.Edge(
                    "e" + i++,
                    byId.get(e.from()).uuid().toString(),
                    byId.get(e.to()).uuid().toString(),
                    e.type().dbValue(),
                    e.label(),
                    onPath ? Boolean.TRUE : null,
                    block == null ? null : Boolean.TRUE));
        }
        for (Map.Entry<String, Block> entry : blocks.entrySet()) {
            Block block = entry.getValue();
            if (block.index().isEmpty()) {
                continue;
            }
            LayeredLayout.Point p = at.get(entry.getKey());
            String owner = byId.get(block.fan().node()).uuid().toString();
            String id = blockId(byId.get(block.fan().node()), block.fan());
            nodes.add(new DrawnGraph.Node(
                    id,
                    String.format("%,d nodes", block.index().size()),
                    "block",
                    null,
                    null,
                    p.x(),
                    p.y(),
                    block.columns() * CELL_WIDTH + 2 * BLOCK_MARGIN,
                    block.rows() * CELL_HEIGHT + 2 * BLOCK_MARGIN,
                    null,
                    null,
                    null));
            String type = blockLinkType.getOrDefault(entry.getKey(), "fold");
            edges.add(new DrawnGraph.Edge(
                    "e" + i++,
                    block.fan().outgoing() ? owner : id,
                    block.fan().outgoing() ? id : owner,
                    type,
                    String.format("%,d", block.index().size()),
                    null,
                    null));
        }
        for (Neighbourhood.Fold fold : result.folds()) {
            Neighbourhood.Vertex owner = byId.get(fold.fan().node());
            String id = foldId(owner, fold.fan().outgoing());
            LayeredLayout.Point p = at.get(id);
            String label = String.format("%,d %s", fold.count(), fold.fan().outgoing() ? "more →" : "← more");
            nodes.add(new DrawnGraph.Node(
                    id,
                    label,
                    "fold",
                    null,
                    null,
                    p.x(),
                    p.y(),
                    FOLD_WIDTH,
                    NodeLooks.HEIGHT,
                    owner.uuid() + (fold.fan().outgoing() ? ":out" : ":in"),
                    null,
                    null));
            String ownerId = owner.uuid().toString();
            edges.add(new DrawnGraph.Edge(
                    "e" + i++,
                    fold.fan().outgoing() ? ownerId : id,
                    fold.fan().outgoing() ? id : ownerId,
                    "fold",
                    null,
                    null,
                    null));
        }
        String centreUuid = byId.get(centre).uuid().toString();
        return new DrawnGraph(centreUuid, key(boxes, arrows), nodes, edges, result.truncated());
    }

    /** The block whose link {@code e} is one of (from the block's fan-out node to a member), or null. */
    private static String bundledInto(Neighbourhood.Edge e, Map<Long, String> blockOf, Map<String, Block> blocks) {
        for (long member : new long[] {e.to(), e.from()}) {
            String id = blockOf.get(member);
            if (id != null) {
                Neighbourhood.Fan fan = blocks.get(id).fan();
                long other = member == e.to() ? e.from() : e.to();
                if (other == fan.node() && (member == e.to()) == fan.outgoing()) {
                    return id;
                }
            }
        }
        return null;
    }

    private static String blockId(Neighbourhood.Vertex owner, Neighbourhood.Fan fan) {
        return "block:" + owner.uuid() + (fan.outgoing() ? ":out" : ":in");
    }

    private static String foldId(Neighbourhood.Vertex owner, boolean outgoing) {
        return "fold:" + owner.uuid() + (outgoing ? ":out" : ":in");
    }

    /** A digest of what was laid out: the boxes and the arrows, not the states. */
    private static String key(List<LayeredLayout.Box> boxes, List<LayeredLayout.Arrow> arrows) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            boxes.stream().map(LayeredLayout.Box::id).sorted().forEach(id -> digest.update(bytes(id + ";")));
            arrows.stream().map(a -> a.from() + ">" + a.to()).sorted().forEach(a -> digest.update(bytes(a + ";")));
            return HexFormat.of().formatHex(digest.digest(), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The grid of an opened fan-out, filled column by column from its top left. */
    private record Block(Neighbourhood.Fan fan, Map<Long, Integer> index, int columns, int rows) {
        Block(Neighbourhood.Fan fan, List<Long> members, int columns, int rows) {
            this(fan, new HashMap<>(), columns, rows);
            for (int i = 0; i < members.size(); i++) {
                index.put(members.get(i), i);
            }
        }

        LayeredLayout.Point place(long member, LayeredLayout.Point centre) {
            int index = this.index.get(member);
            int column = index / rows;
            int row = index % rows;
            double left = centre.x() - columns * CELL_WIDTH / 2 + CELL_WIDTH / 2;
            double top = centre.y() - rows * CELL_HEIGHT / 2 + CELL_HEIGHT / 2;
            return new LayeredLayout.Point(left + column * CELL_WIDTH, top + row * CELL_HEIGHT);
        }
    }
}
