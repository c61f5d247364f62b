package dev.cairn.api.pages.graph;

import java.util.List;

import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;

/**
 * The graph page of a node, the drawing it asks for as JSON (positions laid out here), and the same
 * drawing as SVG to download. Every parameter is in the URL, so a view can be bookmarked and shared.
 */
@Controller
class GraphController {

    private final GraphViews views;

    GraphController(GraphViews views) {
        this.views = views;
    }

    @GetMapping("/ui/nodes/{ref}/graph")
    String page(@PathVariable("ref") String ref, Model model) {
        views.id(ref);
        model.addAttribute("ref", ref);
        model.addAttribute("links", GraphStyle.LINKS);
        model.addAttribute("fills", GraphStyle.FILLS);
        model.addAttribute("maxDepth", GraphParams.MAX_DEPTH);
        return "pages/graph";
    }

    @GetMapping(path = "/ui/graph/{ref}.json", produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    DrawnGraph json(
            @PathVariable("ref") String ref,
            @RequestParam(name = "depth", defaultValue = "2") int depth,
            @RequestParam(name = "types", required = false) String types,
            @RequestParam(name = "expand", required = false) List<String> expand,
            @RequestParam(name = "open", required = false) List<String> open,
            @RequestParam(name = "path", required = false) String path) {
        return views.draw(ref, new GraphParams(depth, GraphParams.types(types), expand, open, path));
    }

    @GetMapping(path = "/ui/graph/{ref}.svg")
    ResponseEntity<String> svg(
            @PathVariable("ref") String ref,
            @RequestParam(name = "depth", defaultValue = "2") int depth,
            @RequestParam(name = "types", required = false) String types,
            @RequestParam(name = "expand", required = false) List<String> expand,
            @RequestParam(name = "open", required = false) List<String> open,
            @RequestParam(name = "path", required = false) String path) {
        DrawnGraph graph = views.draw(ref, new GraphParams(depth, GraphParams.types(types), expand, open, path));
        return ResponseEntity.ok()
                .contentType(MediaType.valueOf("image/svg+xml"))
                .header(
                        HttpHeaders.CONTENT_DISPOSITION,
                        ContentDisposition.attachment()
                                .filename("graph-" + graph.centre() + ".svg")
                                .build()
                                .toString())
                .body(GraphSvg.of(graph));
    }
}
