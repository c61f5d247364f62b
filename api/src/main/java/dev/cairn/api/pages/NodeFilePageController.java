package dev.cairn.api.pages;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

import dev.cairn.api.nodes.FileDownload;
import dev.cairn.api.nodes.NodeFileService;

/**
 * A node's file downloaded from a page: the API's download (ranges, entity tag), behind the session
 * cookie, since a link in a page cannot send an Authorization header.
 */
@Controller
class NodeFilePageController {

    private final NodeFileService files;

    NodeFilePageController(NodeFileService files) {
        this.files = files;
    }

    @GetMapping("/ui/nodes/{ref}/files/{*path}")
    void download(
            @PathVariable("ref") String ref,
            @PathVariable("path") String path,
            HttpServletRequest request,
            HttpServletResponse response)
            throws IOException {
        FileDownload.send(files.file(ref, path.startsWith("/") ? path.substring(1) : path), request, response);
    }
}
