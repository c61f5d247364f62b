package dev.cairn.api.pages;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.servlet.http.HttpSession;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.cairn.api.security.PageSessions;

/**
 * Ends the live pages' event streams with their sessions. A stream is not the person's activity and has
 * no timeout of its own, so a page left open would otherwise hold its request, and keep delivering events,
 * after its session ended; each second, the stream of a session that ended or was idle past its timeout is
 * completed (and the session ended). The browser's EventSource then reconnects, is refused, and stops.
 */
@Component
class PageStreams {

    private final PageSessions sessions;
    private final Map<SseEmitter, HttpSession> open = new ConcurrentHashMap<>();
    private final ScheduledExecutorService checks = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("page-stream-sessions").daemon().factory());

    PageStreams(PageSessions sessions) {
        this.sessions = sessions;
        checks.scheduleWithFixedDelay(this::endThoseOfEndedSessions, 1, 1, TimeUnit.SECONDS);
    }

    /** Ends {@code stream} when {@code session} ends. */
    SseEmitter follow(HttpSession session, SseEmitter stream) {
        open.put(stream, session);
        stream.onCompletion(() -> open.remove(stream));
        stream.onError(e -> open.remove(stream));
        return stream;
    }

    private void endThoseOfEndedSessions() {
        open.forEach((stream, session) -> {
            if (sessions.ended(session)) {
                open.remove(stream);
                try {
                    session.invalidate();
                } catch (IllegalStateException already) {
                    // ended before
                }
                stream.complete();
            }
        });
    }

    @PreDestroy
    void stop() {
        checks.shutdownNow();
    }
}
