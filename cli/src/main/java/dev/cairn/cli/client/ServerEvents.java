package dev.cairn.cli.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The server's event stream ({@code GET /api/v1/events}, Server-Sent Events) read event by event. When
 * the stream drops, it reconnects with the id of the last event it got ({@code last_event_id}), so the
 * server sends what was missed in between and nothing twice.
 */
public final class ServerEvents {

    private static final long RETRY_MILLIS = 2000;
    private static final int MAX_RETRIES = 30;

    private final CairnClient client;
    private final String query;
    private String lastEventId;

    /** {@code query}: the stream's parameters, e.g. {@code tree=0190c1a2}, or empty for every process. */
    public ServerEvents(CairnClient client, String query) {
        this(client, query, null);
    }

    /** Resuming after the event {@code lastEventId}: {@code "0"} replays every kept event of the filter first. */
    public ServerEvents(CairnClient client, String query, String lastEventId) {
        this.client = client;
        this.query = query;
        this.lastEventId = lastEventId;
    }

    /** Opens the stream now, so that nothing after this moment is missed; reading starts with {@link #follow}. */
    public InputStream open() {
        String params = query.isEmpty() ? "" : "?" + query;
        if (lastEventId != null) {
            params += (params.isEmpty() ? "?" : "&") + "last_event_id=" + CairnClient.param(lastEventId);
        }
        return client.stream("/api/v1/events" + params, "text/event-stream");
    }

    /**
     * Hands each event's data to {@code handler} until it answers false; reconnects when the stream
     * drops, and gives up when the server stays away.
     */
    public void follow(InputStream first, Predicate<JsonNode> handler) {
        InputStream in = first;
        int failures = 0;
        while (true) {
            try (InputStream stream = in) {
                if (!read(stream, handler)) {
                    return;
                }
            } catch (IOException e) {
                // dropped: reconnect below
            }
            in = null;
            while (in == null) {
                if (++failures > MAX_RETRIES) {
                    throw new CliException(
                            ExitCodes.UNAVAILABLE,
                            "the event stream of " + client.target().url() + " dropped and did not come back",
                            "`cairn process list` shows where things stand");
                }
                pause();
                try {
                    in = open();
                } catch (CliException e) {
                    if (e.exitCode() != ExitCodes.UNAVAILABLE) {
                        throw e;
                    }
                }
            }
            failures = 0;
        }
    }

    /** Reads events until the stream ends (true: reconnect) or the handler is done (false). */
    private boolean read(InputStream stream, Predicate<JsonNode> handler) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
        StringBuilder data = new StringBuilder();
        String id = null;
        String line;
        while ((line = reader.readLine()) != null) {
            if (line.isEmpty()) {
                if (!data.isEmpty()) {
                    if (id != null) {
                        lastEventId = id;
                    }
                    if (!handler.test(parse(data.toString()))) {
                        return false;
                    }
                }
                data.setLength(0);
                id = null;
            } else if (line.startsWith("data:")) {
                if (!data.isEmpty()) {
                    data.append('\n');
                }
                data.append(value(line, 5));
            } else if (line.startsWith("id:")) {
                id = value(line, 3);
            }
        }
        return true;
    }

    private static String value(String line, int from) {
        String v = line.substring(from);
        return v.startsWith(" ") ? v.substring(1) : v;
    }

    private static JsonNode parse(String data) {
        try {
            return JsonTrees.parse(data);
        } catch (JacksonException e) {
            return JsonTrees.object().put("message", data);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(RETRY_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCodes.INTERRUPTED, "interrupted", null, e);
        }
    }
}
