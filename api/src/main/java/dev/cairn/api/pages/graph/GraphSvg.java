package dev.cairn.api.pages.graph;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The graph as SVG, from the same positions the page draws it at: data as ellipses, calculations as
 * rectangles, workflows as rounded rectangles, folded fan-outs as dashed boxes, opened ones as a frame
 * behind their members with one link to it; links coloured and dashed by type, with arrowheads.
 */
final class GraphSvg {

    private static final double MARGIN = 20;

    private GraphSvg() {}

    static String of(DrawnGraph graph) {
        double minX = Double.MAX_VALUE, minY = Double.MAX_VALUE, maxX = -Double.MAX_VALUE, maxY = -Double.MAX_VALUE;
        Map<String, DrawnGraph.Node> byId = new HashMap<>();
        for (DrawnGraph.Node n : graph.nodes()) {
            byId.put(n.id(), n);
            minX = Math.min(minX, n.x() - n.width() / 2);
            minY = Math.min(minY, n.y() - n.height() / 2);
            maxX = Math.max(maxX, n.x() + n.width() / 2);
            maxY = Math.max(maxY, n.y() + n.height() / 2);
        }
        StringBuilder svg = new StringBuilder(256 + graph.nodes().size() * 200);
        svg.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"%.1f %.1f %.1f %.1f\" width=\"%.0f\" height=\"%.0f\""
                        + " font-family=\"sans-serif\" font-size=\"10\">\n",
                minX - MARGIN,
                minY - MARGIN,
                maxX - minX + 2 * MARGIN,
                maxY - minY + 2 * MARGIN,
                maxX - minX + 2 * MARGIN,
                maxY - minY + 2 * MARGIN));
        svg.append("<title>The provenance graph around ").append(graph.centre()).append("</title>\n<defs>");
        GraphStyle.LINKS.forEach((type, line) -> svg.append(String.format(
                "<marker id=\"arrow-%s\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\""
                        + " markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\""
                        + " fill=\"%s\"/></marker>",
                type, line.colour())));
        svg.append("</defs>\n");
        for (DrawnGraph.Node n : graph.nodes()) {
            if ("block".equals(n.kind())) {
                node(svg, n, graph.centre());
            }
        }
        for (DrawnGraph.Edge e : graph.edges()) {
            if (Boolean.TRUE.equals(e.bundled())) {
                continue;
            }
            DrawnGraph.Node from = byId.get(e.source());
            DrawnGraph.Node to = byId.get(e.target());
            GraphStyle.Line line = GraphStyle.LINKS.get(e.type());
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%s\"%s"
                            + " marker-end=\"url(#arrow-%s)\"><title>%s</title></line>\n",
                    from.x() + from.width() / 2,
                    from.y(),
                    to.x() - to.width() / 2,
                    to.y(),
                    line.colour(),
                    Boolean.TRUE.equals(e.onPath()) ? "3" : "1.2",
                    line.dash().isEmpty() ? "" : " stroke-dasharray=\"" + line.dash() + "\"",
                    e.type(),
                    escape(e.type() + (e.label() == null ? "" : " " + e.label()))));
        }
        for (DrawnGraph.Node n : graph.nodes()) {
            if (!"block".equals(n.kind())) {
                node(svg, n, graph.centre());
            }
        }
        return svg.append("</svg>\n").toString();
    }

    private static void node(StringBuilder svg, DrawnGraph.Node n, String centre) {
        svg.append("<g>");
        String fill = GraphStyle.fill(n);
        String stroke = Boolean.TRUE.equals(n.onPath()) || n.id().equals(centre) ? "#000" : "#607080";
        switch (n.kind()) {
            case "data" ->
                svg.append(String.format(
                        Locale.ROOT,
                        "<ellipse cx=\"%.1f\" cy=\"%.1f\" rx=\"%.1f\" ry=\"%.1f\" fill=\"%s\" stroke=\"%s\"/>",
                        n.x(),
                        n.y(),
                        n.width() / 2,
                        n.height() / 2,
                        fill,
                        stroke));
            default ->
                svg.append(String.format(
                        Locale.ROOT,
                        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"%s\" fill=\"%s\" stroke=\"%s\"%s/>",
                        n.x() - n.width() / 2,
                        n.y() - n.height() / 2,
                        n.width(),
                        n.height(),
                        "workflow".equals(n.kind()) ? "12" : "0",
                        fill,
                        stroke,
                        "fold".equals(n.kind()) || "block".equals(n.kind()) ? " stroke-dasharray=\"4 3\"" : ""));
        }
        String[] lines = n.label().split("\n");
        // a block's label stands above its frame, a node's in its middle
        double middle = "block".equals(n.kind()) ? n.y() - n.height() / 2 - 8 : n.y();
        for (int i = 0; i < lines.length; i++) {
            svg.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"%s\">%s</text>",
                    n.x(),
                    middle + (i - (lines.length - 1) / 2.0) * 12 + 3.5,
                    GraphStyle.text(n),
                    escape(lines[i])));
        }
        svg.append("</g>\n");
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;");
    }
}
