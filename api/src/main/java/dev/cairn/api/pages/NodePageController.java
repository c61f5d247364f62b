package dev.cairn.api.pages;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import dev.cairn.api.nodes.CommentService;
import dev.cairn.api.nodes.LinkedNode;
import dev.cairn.api.nodes.NodeSelection;
import dev.cairn.api.nodes.NodeService;
import dev.cairn.api.security.CurrentUser;
import dev.cairn.api.web.NodeRefs;
import dev.cairn.api.web.Page;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.Node;

/**
 * A node's page: what it is, its attributes and extras as folded JSON, its links in and out with their
 * counts (a page at a time), its files with a preview, its comments, and the way to its graph.
 */
@Controller
class NodePageController {

    /** Links shown a page at a time, each way. */
    static final int LINKS = 50;

    static final int COMMENTS = 50;

    private final NodeRefs refs;
    private final NodeService nodes;
    private final CommentService comments;
    private final FilePreviews files;

    NodePageController(NodeRefs refs, NodeService nodes, CommentService comments, FilePreviews files) {
        this.refs = refs;
        this.nodes = nodes;
        this.comments = comments;
        this.files = files;
    }

    @GetMapping("/ui/nodes/{ref}")
    String node(
            @PathVariable("ref") String ref,
            @RequestParam(name = "in", required = false) String in,
            @RequestParam(name = "out", required = false) String out,
            Model model) {
        // a link to the next links of one side carries the other side's cursor, empty on its first page
        String inCursor = in == null || in.isBlank() ? null : in;
        String outCursor = out == null || out.isBlank() ? null : out;
        Node node = refs.node(ref);
        String uuid = node.uuid().toString();
        model.addAttribute("node", node);
        // the first level of each; the page fetches a fold's rows when it is opened (NodeJsonController)
        model.addAttribute("attributes", JsonFolds.level("attributes", node.attributes(), "", 0));
        model.addAttribute("extras", JsonFolds.level("extras", node.extras(), "", 0));
        model.addAttribute("incoming", links(uuid, true, inCursor));
        model.addAttribute("outgoing", links(uuid, false, outCursor));
        model.addAttribute("inCursor", inCursor);
        model.addAttribute("outCursor", outCursor);
        model.addAttribute("files", files.of(node.uuid()));
        model.addAttribute("comments", comments.list(uuid, null, COMMENTS));
        return "pages/node";
    }

    /** A comment added from the page (the role submit, and the session's CSRF token, as every POST of the pages). */
    @PostMapping("/ui/nodes/{ref}/comments")
    String comment(@PathVariable("ref") String ref, @RequestParam(name = "content") String content) {
        if (content.isBlank()) {
            throw new InvalidInputException("a comment needs some text");
        }
        comments.add(ref, CurrentUser.principal(), content.strip());
        return "redirect:/ui/nodes/" + refs.node(ref).uuid() + "#comments";
    }

    private Page<LinkedNode> links(String uuid, boolean incoming, String cursor) {
        return nodes.links(uuid, incoming, null, null, NodeSelection.ALL, cursor, LINKS, cursor == null);
    }
}
