package dev.cairn.api.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** HTTP requests to the server under test as one token, with JSON in and out. */
public final class Api {

    private static final HttpClient CLIENT =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String base;
    private final String token;

    /** Requests to the server at {@code base} ({@code http://localhost:8080}) as {@code token} (null: none). */
    public Api(String base, String token) {
        this.base = base;
        this.token = token;
    }

    /** A response: its status, headers and body (JSON when it is JSON). */
    public record Response(int status, Map<String, List<String>> headers, String body) {

        public JsonNode json() {
            return JSON.readTree(body);
        }

        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().getFirst())
                    .findFirst()
                    .orElse(null);
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    public Response get(String path) {
        return send(request(path).GET());
    }

    public Response delete(String path) {
        return send(request(path).DELETE());
    }

    public Response post(String path, String json) {
        return send(request(path).header("Content-Type", "application/json").POST(body(json)));
    }

    public Response put(String path, String json) {
        return send(request(path).header("Content-Type", "application/json").PUT(body(json)));
    }

    public Response patch(String path, String json) {
        return send(request(path).header("Content-Type", "application/json").method("PATCH", body(json)));
    }

    /** Any request, built on a request to {@code path} with the token set. */
    public Response send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> r = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(r.statusCode(), r.headers().map(), r.body());
        } catch (IOException e) {
            throw new IllegalStateException("the server did not answer: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** A request whose body comes as a stream (a download); the caller closes it. */
    public HttpResponse<InputStream> stream(HttpRequest.Builder request) {
        try {
            return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new IllegalStateException("the server did not answer: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** A request to {@code path} (from the server's root, {@code /api/v1/...}) with the token. */
    public HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return b;
    }

    private static HttpRequest.BodyPublisher body(String json) {
        return HttpRequest.BodyPublishers.ofString(json);
    }

    public static JsonMapper json() {
        return JSON;
    }
}
