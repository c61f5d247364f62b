package dev.cairn.api.pages;

import java.util.Map;

import org.springframework.http.MediaType;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;

import dev.cairn.api.web.NodeRefs;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.Node;

/**
 * The rows of a fold of a node's attributes or extras, fetched by the node page when the fold is opened,
 * and the next rows of a long one ({@link JsonFolds}); and each whole, as JSON.
 */
@Controller
class NodeJsonController {

    private final NodeRefs refs;

    NodeJsonController(NodeRefs refs) {
        this.refs = refs;
    }

    @GetMapping("/ui/nodes/{ref}/folds/{part}")
    String rows(
            @PathVariable("ref") String ref,
            @PathVariable("part") String part,
            @RequestParam(name = "path", defaultValue = "") String path,
            @RequestParam(name = "from", defaultValue = "0") int from,
            Model model) {
        Node node = refs.node(ref);
        model.addAttribute("level", JsonFolds.level(part, part(node, part), path, from));
        model.addAttribute("uuid", node.uuid());
        return "pages/json-parts :: rows";
    }

    /** The whole document as JSON, for the reader who wants it raw (the API's node needs a bearer token). */
    @GetMapping(path = "/ui/nodes/{ref}/json/{part}", produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    Map<String, Object> raw(@PathVariable("ref") String ref, @PathVariable("part") String part) {
        return part(refs.node(ref), part);
    }

    private static Map<String, Object> part(Node node, String part) {
        return switch (part) {
            case "attributes" -> node.attributes();
            case "extras" -> node.extras();
            default ->
                throw new InvalidInputException(
                        "'" + part + "' is not a part of a node that the page folds: attributes or extras");
        };
    }
}
