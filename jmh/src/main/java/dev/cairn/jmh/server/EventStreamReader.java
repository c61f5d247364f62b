package dev.cairn.jmh.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One open event stream of the server ({@code GET /api/v1/events}) of one process or of every process, read
 * on a virtual thread of its own: the state changes it got, each one's delay (read time minus the time in
 * its data), the changes it got twice or that were another process's, and a latch released once it has
 * seen the end it waits for. {@link EventStreamLoad} opens them and checks what they read.
 */
final class EventStreamReader {

    private static final Pattern TIME = Pattern.compile("\"time\":\"([^\"]+)\"");
    private static final Pattern EVENT_ID = Pattern.compile("\"event_id\":(\\d+)");
    private static final Pattern TO = Pattern.compile("\"to\":\"([a-z]+)\"");
    private static final Set<String> TERMINAL = Set.of("finished", "excepted", "killed");

    final String query;
    /** A stream of every process, not of one. */
    final boolean all;

    final String process;
    final Set<Long> ids = ConcurrentHashMap.newKeySet();
    final List<Long> delaysMicros = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger duplicates = new AtomicInteger();
    final AtomicInteger foreign = new AtomicInteger();
    final CountDownLatch done = new CountDownLatch(1);
    final AtomicLong terminal = new AtomicLong();
    /** Terminal moves a stream of everything waits for, read as each one comes (the run sets it per batch). */
    private final IntSupplier expectedTerminal;

    private volatile InputStream body;

    private EventStreamReader(String query, boolean all, IntSupplier expectedTerminal) {
        this.query = query;
        this.all = all;
        this.process = all ? null : query.substring("?process=".length());
        this.expectedTerminal = expectedTerminal;
    }

    /**
     * Opens the stream {@code /api/v1/events} + {@code query} ({@code ?process=UUID}, or empty for every
     * process), waits for its opening comment (it has joined the server's hub), and reads it from then on.
     */
    static EventStreamReader open(ServerClient server, String query, boolean all, IntSupplier expectedTerminal)
            throws Exception {
        HttpResponse<InputStream> r = server.http()
                .send(
                        server.request("/api/v1/events" + query)
                                .header("Accept", "text/event-stream")
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofInputStream());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET /api/v1/events" + query + " answered " + r.statusCode() + ": "
                    + new String(r.body().readAllBytes(), StandardCharsets.UTF_8));
        }
        EventStreamReader s = new EventStreamReader(query, all, expectedTerminal);
        s.body = r.body();
        BufferedReader lines = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8));
        // the opening comment: the stream has joined the hub
        String first = lines.readLine();
        if (first == null || !first.startsWith(":")) {
            throw new IllegalStateException("stream" + query + " began with " + first);
        }
        Thread.ofVirtual().start(() -> s.read(lines));
        return s;
    }

    private void read(BufferedReader lines) {
        try {
            String line;
            while ((line = lines.readLine()) != null) {
                if (!line.startsWith("data:")) {
                    continue;
                }
                Instant now = Instant.now();
                Matcher time = TIME.matcher(line);
                Matcher id = EVENT_ID.matcher(line);
                Matcher to = TO.matcher(line);
                if (!time.find() || !id.find() || !to.find()) {
                    throw new IllegalStateException("not a state change: " + line);
                }
                Duration delay = Duration.between(Instant.parse(time.group(1)), now);
                delaysMicros.add(delay.toNanos() / 1000);
                if (!ids.add(Long.parseLong(id.group(1)))) {
                    duplicates.incrementAndGet();
                }
                boolean ends = TERMINAL.contains(to.group(1));
                if (!all) {
                    if (!line.contains("\"process\":\"" + process + "\"")) {
                        foreign.incrementAndGet();
                    } else if (ends) {
                        done.countDown();
                    }
                } else if (ends && terminal.incrementAndGet() >= expectedTerminal.getAsInt()) {
                    // a stream of everything is done when it has the terminal move of every process
                    done.countDown();
                }
            }
        } catch (IOException e) {
            // closed at the end
        }
    }

    /** The delays, in microseconds and sorted, of the process streams ({@code all} false) or the others. */
    static long[] delays(List<EventStreamReader> streams, boolean all) {
        return streams.stream()
                .filter(s -> s.all == all)
                .flatMap(s -> s.delaysMicros.stream())
                .mapToLong(Long::longValue)
                .sorted()
                .toArray();
    }

    void close() {
        try {
            body.close();
        } catch (IOException | RuntimeException ignored) {
            // gone already
        }
    }
}
