package dev.cairn.api.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import tools.jackson.databind.JsonNode;

/**
 * A Server-Sent Events client for tests: reads a stream on a thread of its own and queues its
 * events (comments are counted, not queued). {@link #close()} drops the connection, as a client
 * that goes away does.
 */
public final class SseClient implements AutoCloseable {

    /** An event: its id (null when it had none), name and data. */
    public record Event(String id, String name, String data) {

        public JsonNode json() {
            return Api.json().readTree(data);
        }

        public long eventId() {
            return json().get("event_id").asLong();
        }
    }

    private final HttpResponse<InputStream> response;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private volatile int comments;
    private volatile boolean ended;

    private SseClient(HttpResponse<InputStream> response) {
        this.response = response;
        Thread.ofVirtual().name("sse-client").start(this::read);
    }

    /** Opens {@code path} (with its query) as {@code api}'s token, sending {@code lastEventId} when not null. */
    public static SseClient open(Api api, String path, String lastEventId) {
        HttpRequest.Builder request = api.request(path).header("Accept", "text/event-stream");
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<InputStream> response = api.stream(request.GET());
        if (response.statusCode() != 200) {
            String body;
            try (InputStream in = response.body()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                body = e.toString();
            }
            throw new IllegalStateException("the stream answered " + response.statusCode() + ": " + body);
        }
        return new SseClient(response);
    }

    public String contentType() {
        return response.headers().firstValue("Content-Type").orElse(null);
    }

    private void read() {
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String id = null;
            String name = null;
            StringBuilder data = null;
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.isEmpty()) {
                    if (data != null) {
                        events.add(new Event(id, name, data.toString()));
                    }
                    id = null;
                    name = null;
                    data = null;
                } else if (line.startsWith(":")) {
                    comments++;
                } else if (line.startsWith("id:")) {
                    id = line.substring(3).strip();
                } else if (line.startsWith("event:")) {
                    name = line.substring(6).strip();
                } else if (line.startsWith("data:")) {
                    String part = line.substring(5).stripLeading();
                    data = data == null
                            ? new StringBuilder(part)
                            : data.append('\n').append(part);
                }
            }
        } catch (IOException e) {
            // closed by the test, or by the server
        } finally {
            ended = true;
        }
    }

    /** The next event, or null when none comes within {@code timeout}. */
    public Event next(Duration timeout) throws InterruptedException {
        return events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The next {@code n} events; fails when they do not all come within {@code timeout}. */
    public List<Event> take(int n, Duration timeout) throws InterruptedException {
        List<Event> taken = new ArrayList<>(n);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (taken.size() < n) {
            Event e = events.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (e == null) {
                throw new AssertionError(
                        "got " + taken.size() + " of " + n + " events within " + timeout + ": " + taken);
            }
            taken.add(e);
        }
        return taken;
    }

    /** The events that came and were not taken yet. */
    public List<Event> drain() {
        List<Event> all = new ArrayList<>();
        events.drainTo(all);
        return all;
    }

    public int comments() {
        return comments;
    }

    public boolean ended() {
        return ended;
    }

    @Override
    public void close() {
        try {
            response.body().close();
        } catch (IOException ignored) {
            // gone already
        }
    }
}
