package dev.cairn.api.pages;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.cairn.api.events.EventStreams;

/**
 * The live pages' event stream: the API's, behind the session cookie (a browser's EventSource sends
 * cookies but cannot send an Authorization header). Resumable with Last-Event-ID, with heartbeats.
 */
@RestController
class PageEventsController {

    private final EventStreams streams;

    PageEventsController(EventStreams streams) {
        this.streams = streams;
    }

    @GetMapping(path = "/ui/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    SseEmitter events(
            @RequestParam(name = "process", required = false) String process,
            @RequestParam(name = "tree", required = false) String tree,
            @RequestHeader(name = "Last-Event-ID", required = false) String lastEventId) {
        return streams.open(process, tree, lastEventId);
    }
}
