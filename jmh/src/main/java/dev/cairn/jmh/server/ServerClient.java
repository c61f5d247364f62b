package dev.cairn.jmh.server;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The load programs' client of a running server: its requests, launches of the workload, and waiting. */
final class ServerClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String url;
    private final String token;
    private final HttpClient http;

    ServerClient(String url, String token) {
        this.url = url;
        this.token = token;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(30))
                .executor(Executors.newVirtualThreadPerTaskExecutor())
                .build();
    }

    HttpClient http() {
        return http;
    }

    HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(url + path))
                .timeout(Duration.ofSeconds(120))
                .header("Authorization", "Bearer " + token);
    }

    JsonNode get(String path) throws Exception {
        HttpResponse<String> r = http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }

    /** Launches n work chains (x+y)*z with x = offset .. offset+n-1 in one batch; returns their uuids. */
    List<String> submitBatch(int n, int offset) throws Exception {
        String body = IntStream.range(0, n)
                .mapToObj(i -> launch(offset + i))
                .collect(Collectors.joining(",", "{\"launches\":[", "]}"));
        HttpResponse<String> r = post("/api/v1/processes/batch", body);
        if (r.statusCode() != 201) {
            throw new IllegalStateException("the batch answered " + r.statusCode() + ": " + r.body());
        }
        List<String> uuids = new ArrayList<>(n);
        JSON.readTree(r.body())
                .get("processes")
                .forEach(p -> uuids.add(p.get("uuid").asString()));
        return uuids;
    }

    /** Launches one work chain of the workload, one request. */
    void submitOne(int x) throws Exception {
        HttpResponse<String> r = post("/api/v1/processes", launch(x));
        if (r.statusCode() != 201) {
            throw new IllegalStateException("a launch answered " + r.statusCode() + ": " + r.body());
        }
    }

    /** Waits until no process is live, asking every {@code poll}; 15 minutes at most. */
    void awaitIdle(Duration poll) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
        while (get("/api/v1/processes?state=created,waiting&limit=1")
                        .get("items")
                        .size()
                > 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("processes are still live after 15 minutes");
            }
            Thread.sleep(poll);
        }
    }

    long liveThreads() throws Exception {
        return get("/actuator/metrics/jvm.threads.live")
                .get("measurements")
                .get(0)
                .get("value")
                .asLong();
    }

    private HttpResponse<String> post(String path, String json) throws Exception {
        return http.send(
                request(path)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String launch(int x) {
        return "{\"entry_point\":\"arithmetic.add_multiply\",\"inputs\":{\"x\":" + x + ",\"y\":1,\"z\":2}}";
    }
}
