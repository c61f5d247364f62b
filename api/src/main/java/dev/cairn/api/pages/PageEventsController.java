package dev.cairn.api.pages;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.cairn.api.events.EventStreams;

/**
 * The live pages' event stream: the API's, behind the session cookie (a browser's EventSource sends
 * cookies but cannot send an Authorization header). Resumable with Last-Event-ID, with heartbeats; it ends
 * when its session does ({@link PageStreams}).
 */
@RestController
class PageEventsController {

    private final EventStreams streams;
    private final PageStreams pages;

    PageEventsController(EventStreams streams, PageStreams pages) {
        this.streams = streams;
        this.pages = pages;
    }

    @GetMapping(path = "/ui/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    SseEmitter events(
            @RequestParam(name = "process", required = false) String process,
            @RequestParam(name = "tree", required = false) String tree,
            @RequestHeader(name = "Last-Event-ID", required = false) String lastEventId,
            HttpServletRequest request) {
        SseEmitter stream = streams.open(process, tree, lastEventId);
        HttpSession session = request.getSession(false);
        return session == null ? stream : pages.follow(session, stream);
    }
}
