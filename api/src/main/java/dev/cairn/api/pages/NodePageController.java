package dev.cairn.api.pages;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.api.web.NodeRefs;
import dev.cairn.storage.graph.Node;

/** A node's page: what it is, its attributes and extras as folded JSON, and the way to its graph. */
@Controller
class NodePageController {

    private final NodeRefs refs;
    private final JsonMapper json;

    NodePageController(NodeRefs refs, JsonMapper json) {
        this.refs = refs;
        this.json = json.rebuild().enable(SerializationFeature.INDENT_OUTPUT).build();
    }

    @GetMapping("/ui/nodes/{ref}")
    String node(@PathVariable("ref") String ref, Model model) {
        Node node = refs.node(ref);
        model.addAttribute("node", node);
        model.addAttribute("attributes", json.writeValueAsString(node.attributes()));
        model.addAttribute("extras", json.writeValueAsString(node.extras()));
        return "pages/node";
    }
}
