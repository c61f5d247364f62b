package dev.cairn.api.ops;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import tools.jackson.databind.JsonNode;

import dev.cairn.api.testing.Api;
import dev.cairn.storage.testing.RabbitServer;

/**
 * The few calls of RabbitMQ's management API that take a test's virtual host away from the server
 * under test and give it back, without touching the broker itself: the user's permissions on the
 * virtual host, and its connections.
 */
final class RabbitManagement {

    // HTTP/1.1: the broker's web server hangs up on the h2c upgrade the client offers by default
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    private final String base;
    private final String authorization;

    RabbitManagement(RabbitServer server) {
        URI m = server.management();
        this.base = m.getScheme() + "://" + m.getHost() + ":" + m.getPort();
        this.authorization =
                "Basic " + Base64.getEncoder().encodeToString(m.getUserInfo().getBytes(StandardCharsets.UTF_8));
    }

    /** Takes the user's permissions on the virtual host: it can connect there no more. */
    void revoke(String vhost, String user) throws IOException {
        send("DELETE", "/api/permissions/" + segment(vhost) + "/" + segment(user), null);
    }

    void grantAll(String vhost, String user) throws IOException {
        send(
                "PUT",
                "/api/permissions/" + segment(vhost) + "/" + segment(user),
                "{\"configure\":\".*\",\"write\":\".*\",\"read\":\".*\"}");
    }

    /** The client connections to the virtual host, by name. */
    List<String> connections(String vhost) throws IOException {
        JsonNode connections = Api.json().readTree(send("GET", "/api/vhosts/" + segment(vhost) + "/connections", null));
        List<String> names = new ArrayList<>();
        connections.forEach(c -> names.add(c.get("name").asString()));
        return names;
    }

    /**
     * The connections to the virtual host, once there is one: the management API lists a new connection
     * only after its statistics were first collected (every 5 s by default), so a fresh one may be
     * missing for a while.
     */
    List<String> awaitConnections(String vhost, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> names = connections(vhost);
        while (names.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(200);
            names = connections(vhost);
        }
        return names;
    }

    /** Closes every client connection to the virtual host (the broker may have closed them already). */
    void closeConnections(String vhost) throws IOException {
        for (String name : connections(vhost)) {
            HttpResponse<String> r = request("DELETE", "/api/connections/" + segment(name), null);
            if (r.statusCode() / 100 != 2 && r.statusCode() != 404) {
                throw new IOException("closing " + name + " answered " + r.statusCode() + ": " + r.body());
            }
        }
    }

    private String send(String method, String path, String json) throws IOException {
        HttpResponse<String> response = request(method, path, json);
        if (response.statusCode() / 100 != 2) {
            throw new IOException(method + " " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    private HttpResponse<String> request(String method, String path, String json) throws IOException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", authorization);
        if (json == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(json));
        }
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private static String segment(String name) {
        return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
