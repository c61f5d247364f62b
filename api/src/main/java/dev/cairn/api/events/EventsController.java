package dev.cairn.api.events;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** {@code /api/v1/events}: process state changes as they happen, as Server-Sent Events. */
@RestController
@RequestMapping("/api/v1/events")
@Tag(name = "events", description = "Process state changes as they happen (Server-Sent Events), resumable")
class EventsController {

    private final EventStreams streams;

    EventsController(EventStreams streams) {
        this.streams = streams;
    }

    @GetMapping(produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Operation(
            operationId = "followEvents",
            summary = "Follow process state changes: of all processes, one, or a call tree",
            description = """
                    A stream of Server-Sent Events, one event `state` per move of a process from one state to \
                    another (created, waiting, finished, excepted, killed; pausing is not a move), in the order \
                    of their ids. Each event's `id` is the change's id: a client that reconnects with the last \
                    one it got (the `Last-Event-ID` header, which browsers' EventSource sends by themselves, or \
                    the `last_event_id` parameter) first gets every change of its filter it missed, from the \
                    database, then the live ones; none twice. Without it, the stream starts now. `tree` \
                    follows a process and every process it calls, those called later included. A comment \
                    comes every 15 s (`cairn.events.heartbeat`) when nothing else does. Changes are kept for \
                    `cairn.events.retention` (7 days). Needs the role read.""")
    @ApiResponse(
            responseCode = "200",
            description = "the stream; it ends only when the client or the server closes it",
            content =
                    @Content(
                            mediaType = MediaType.TEXT_EVENT_STREAM_VALUE,
                            schema = @Schema(implementation = ProcessEvent.class),
                            examples = @ExampleObject(name = "a finished work chain", value = """
                                                    id: 4182
                                                    event: state
                                                    data: {"event_id":4182,"process":"0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55",\
                                                    "entry_point":"arithmetic.add_multiply","caller":null,"from":"created",\
                                                    "to":"finished","exit_status":0,"time":"2026-11-24T15:13:01.123456Z"}
                                                    """)))
    SseEmitter events(
            @Parameter(
                            description = "follow only this process (its uuid, or a unique prefix of it)",
                            example = "0190c1a2")
                    @RequestParam(name = "process", required = false)
                    String process,
            @Parameter(
                            description =
                                    "follow this process and every process it calls, directly or not (uuid or prefix)",
                            example = "0190c1a2")
                    @RequestParam(name = "tree", required = false)
                    String tree,
            @Parameter(
                            description =
                                    "resume after this change's id, for clients that cannot set the Last-Event-ID header",
                            example = "4182")
                    @RequestParam(name = "last_event_id", required = false)
                    String lastEventIdParameter,
            @Parameter(
                            in = ParameterIn.HEADER,
                            description = "resume after this change's id (what SSE clients send when they reconnect)",
                            example = "4182")
                    @RequestHeader(name = "Last-Event-ID", required = false)
                    String lastEventIdHeader) {
        return streams.open(process, tree, lastEventIdHeader != null ? lastEventIdHeader : lastEventIdParameter);
    }
}
