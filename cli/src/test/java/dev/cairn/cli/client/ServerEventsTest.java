package dev.cairn.cli.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The event stream as the server sends it: read event by event, and resumed after a drop where it stopped. */
class ServerEventsTest {

    private final List<String> queries = new ArrayList<>();
    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void aDroppedStreamIsResumedAfterTheLastEventReceived() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/v1/events", exchange -> {
            String query = exchange.getRequestURI().getQuery();
            queries.add(query);
            if (queries.size() == 1) {
                // one event, a heartbeat, then the connection drops
                send(
                        exchange,
                        ": opening\nretry: 2000\n\nid: 5\nevent: state\ndata: {\"process\": \"a\", \"to\":"
                                + " \"waiting\"}\n\n: heartbeat\n\n");
            } else {
                send(
                        exchange,
                        "id: 6\nevent: state\ndata: {\"process\": \"a\",\n"
                                + "data: \"to\": \"finished\"}\n\nid: 7\nevent: state\ndata: {\"process\": \"b\"}\n\n");
            }
        });
        server.start();
        CairnClient client = new CairnClient(
                new Target(URI.create("http://127.0.0.1:" + server.getAddress().getPort()), "t", "test"),
                Duration.ofSeconds(5));

        ServerEvents events = new ServerEvents(client, "tree=a");
        List<String> seen = new ArrayList<>();
        events.follow(events.open(), event -> {
            seen.add(JsonTrees.text(event, "to", "?"));
            return !"finished".equals(JsonTrees.text(event, "to", ""));
        });

        assertEquals(List.of("waiting", "finished"), seen, "the data lines of one event are one JSON document");
        assertEquals(List.of("tree=a", "tree=a&last_event_id=5"), queries);
    }

    private static void send(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
