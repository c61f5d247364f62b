package dev.cairn.api.pages.graph;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.springframework.stereotype.Service;

import dev.cairn.api.web.NodeRefs;
import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.traversal.Neighbourhood;

/**
 * The provenance graph around a node, read, folded and laid out for the graph page and its SVG
 * export: the same drawing for both.
 */
@Service
class GraphViews {

    /** A fan-out of more nodes than this is folded into a count until opened. */
    static final int FOLD_ABOVE = 25;
    /** The most nodes one drawing holds: past it, the rest is cut off and the page says so. */
    static final int MAX_NODES = 5_000;

    private final Neighbourhood neighbourhood;
    private final NodeRefs refs;

    GraphViews(Storage storage, NodeRefs refs) {
        this.neighbourhood = storage.neighbourhood();
        this.refs = refs;
    }

    /** The uuid-named node {@code ref} names, as the graph pages name it. */
    long id(String ref) {
        return refs.id(ref);
    }

    DrawnGraph draw(String ref, GraphParams params) {
        long centre = refs.id(ref);
        Set<Long> path = new HashSet<>();
        if (params.pathTo() != null) {
            List<Long> found = neighbourhood.path(centre, refs.id(params.pathTo()), params.types(), MAX_NODES * 20);
            if (found.isEmpty()) {
                throw new InvalidInputException("no path of links " + params.types() + " joins this node and "
                        + params.pathTo() + " in either direction");
            }
            path.addAll(found);
        }
        Neighbourhood.Result result = neighbourhood.around(new Neighbourhood.Request(
                centre,
                params.depth(),
                params.types(),
                FOLD_ABOVE,
                fans(params.expanded()),
                fans(params.opened()),
                path,
                MAX_NODES));
        return GraphDrawing.draw(result, centre, path);
    }

    private Set<Neighbourhood.Fan> fans(List<String> named) {
        Set<Neighbourhood.Fan> fans = new HashSet<>();
        for (String fan : named) {
            int colon = fan.lastIndexOf(':');
            String side = colon < 0 ? "" : fan.substring(colon + 1);
            if (!side.equals("out") && !side.equals("in")) {
                throw new InvalidInputException(
                        "'" + fan + "' names no fan-out: give a node's uuid and a side, as <uuid>:out or <uuid>:in");
            }
            fans.add(new Neighbourhood.Fan(refs.id(fan.substring(0, colon)), side.equals("out")));
        }
        return fans;
    }
}
