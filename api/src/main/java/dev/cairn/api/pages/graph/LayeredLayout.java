package dev.cairn.api.pages.graph;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.elk.alg.layered.options.CrossingMinimizationStrategy;
import org.eclipse.elk.alg.layered.options.CycleBreakingStrategy;
import org.eclipse.elk.alg.layered.options.LayeredMetaDataProvider;
import org.eclipse.elk.alg.layered.options.LayeredOptions;
import org.eclipse.elk.alg.layered.options.LayeringStrategy;
import org.eclipse.elk.alg.layered.options.NodePlacementStrategy;
import org.eclipse.elk.core.RecursiveGraphLayoutEngine;
import org.eclipse.elk.core.data.LayoutMetaDataService;
import org.eclipse.elk.core.options.CoreOptions;
import org.eclipse.elk.core.options.Direction;
import org.eclipse.elk.core.options.EdgeRouting;
import org.eclipse.elk.core.util.BasicProgressMonitor;
import org.eclipse.elk.graph.ElkNode;
import org.eclipse.elk.graph.util.ElkGraphUtil;

/**
 * Lays a directed graph out in layers from left to right with ELK's layered algorithm (Sugiyama's
 * method), on the server, so a browser only draws what it is sent. The cheaper choice at each phase
 * (layers by longest path, one round of sweeps against crossings, simple placement in a layer):
 * ELK's defaults took three to four times as long on provenance-like graphs of 2,000 nodes, for a
 * picture hard to tell apart. The graph pages keep what they lay out small by folding large fan-outs.
 */
final class LayeredLayout {

    /** A box to place, {@code width} by {@code height}. */
    public record Box(String id, double width, double height) {}

    /** A link from one box to another, by their ids. */
    public record Arrow(String from, String to) {}

    /** Where a box went: its centre. */
    public record Point(double x, double y) {}

    static {
        // outside Eclipse nothing registers the algorithms and the types of their options
        LayoutMetaDataService.getInstance().registerLayoutMetaDataProviders(new LayeredMetaDataProvider());
    }

    private LayeredLayout() {}

    /** The centre of every box, laid out with the arrows pointing right; an arrow to an unknown box is left out. */
    public static Map<String, Point> layout(List<Box> boxes, List<Arrow> arrows) {
        ElkNode root = ElkGraphUtil.createGraph();
        root.setProperty(CoreOptions.ALGORITHM, LayeredOptions.ALGORITHM_ID);
        root.setProperty(CoreOptions.DIRECTION, Direction.RIGHT);
        root.setProperty(CoreOptions.EDGE_ROUTING, EdgeRouting.POLYLINE);
        root.setProperty(LayeredOptions.THOROUGHNESS, 1);
        root.setProperty(CoreOptions.SPACING_NODE_NODE, 12.0);
        root.setProperty(LayeredOptions.SPACING_NODE_NODE_BETWEEN_LAYERS, 60.0);
        root.setProperty(CoreOptions.SEPARATE_CONNECTED_COMPONENTS, false);
        root.setProperty(LayeredOptions.LAYERING_STRATEGY, LayeringStrategy.LONGEST_PATH);
        root.setProperty(LayeredOptions.NODE_PLACEMENT_STRATEGY, NodePlacementStrategy.SIMPLE);
        root.setProperty(LayeredOptions.CROSSING_MINIMIZATION_STRATEGY, CrossingMinimizationStrategy.LAYER_SWEEP);
        root.setProperty(LayeredOptions.CYCLE_BREAKING_STRATEGY, CycleBreakingStrategy.GREEDY);
        Map<String, ElkNode> nodes = HashMap.newHashMap(boxes.size());
        for (Box box : boxes) {
            ElkNode node = ElkGraphUtil.createNode(root);
            node.setIdentifier(box.id());
            node.setDimensions(box.width(), box.height());
            nodes.put(box.id(), node);
        }
        for (Arrow arrow : arrows) {
            ElkNode from = nodes.get(arrow.from());
            ElkNode to = nodes.get(arrow.to());
            if (from != null && to != null && from != to) {
                ElkGraphUtil.createSimpleEdge(from, to);
            }
        }
        new RecursiveGraphLayoutEngine().layout(root, new BasicProgressMonitor());
        Map<String, Point> points = HashMap.newHashMap(boxes.size());
        for (ElkNode node : root.getChildren()) {
            points.put(
                    node.getIdentifier(),
                    new Point(node.getX() + node.getWidth() / 2, node.getY() + node.getHeight() / 2));
        }
        return points;
    }
}
