package dev.cairn.storage.testing;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/**
 * The few calls of RabbitMQ's management HTTP API the tests need: virtual hosts, their
 * limits and permissions. Plain {@code java.net.http}, no client library.
 */
final class ManagementApi {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final URI base;
    private final String authorization;
    // HTTP/1.1: by default the client offers an h2c upgrade, and the broker's web server
    // (Cowboy) hangs up on an upgrade request that has a body ("EOF reached while reading").
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT)
            .build();

    ManagementApi(RabbitServer server) {
        this.base = server.managementBase();
        String credentials = server.managementUser() + ":" + server.managementPassword();
        this.authorization =
                "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
    }

    /** Creates the virtual host; a no-op if it exists. */
    void createVhost(String vhost) throws IOException {
        expectSuccess("PUT", "/api/vhosts/" + segment(vhost), "{}");
    }

    /** Lets {@code user} configure, write and read everything in {@code vhost}. */
    void grantAll(String vhost, String user) throws IOException {
        expectSuccess(
                "PUT",
                "/api/permissions/" + segment(vhost) + "/" + segment(user),
                "{\"configure\":\".*\",\"write\":\".*\",\"read\":\".*\"}");
    }

    /** Limits the queues {@code vhost} may hold to {@code max} (queues already there stay); null lifts the limit. */
    void limitQueues(String vhost, Integer max) throws IOException {
        String path = "/api/vhost-limits/" + segment(vhost) + "/max-queues";
        if (max == null) {
            expectSuccess("DELETE", path, null);
        } else {
            expectSuccess("PUT", path, "{\"value\":" + max + "}");
        }
    }

    /** Deletes the virtual host with its queues and exchanges; a no-op if it is gone already. */
    void deleteVhost(String vhost) throws IOException {
        HttpResponse<String> response = send("DELETE", "/api/vhosts/" + segment(vhost), null);
        if (response.statusCode() != 404) {
            check(response);
        }
    }

    boolean vhostExists(String vhost) throws IOException {
        HttpResponse<String> response = send("GET", "/api/vhosts/" + segment(vhost), null);
        if (response.statusCode() == 404) {
            return false;
        }
        check(response);
        return true;
    }

    /**
     * The broker's own account of a queue, for a test's failure message: its JSON as the management API
     * gives it (ready and unacknowledged messages, consumers with their channels), or why it could not be read.
     */
    String queue(String vhost, String queue) {
        try {
            HttpResponse<String> response = send(
                    "GET",
                    "/api/queues/" + segment(vhost) + "/" + segment(queue)
                            + "?columns=messages_ready,messages_unacknowledged,consumers,consumer_details,type,leader",
                    null);
            return response.statusCode() + " " + response.body();
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    private void expectSuccess(String method, String path, String json) throws IOException {
        check(send(method, path, json));
    }

    private HttpResponse<String> send(String method, String path, String json) throws IOException {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT).header("Authorization", authorization);
        if (json == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(json));
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted during " + method + " " + base + path, e);
        } catch (IOException e) {
            throw new IOException(
                    "RabbitMQ management API at " + base + " unreachable (" + method + " " + path + "): " + e, e);
        }
    }

    private static void check(HttpResponse<String> response) throws IOException {
        int status = response.statusCode();
        if (status / 100 != 2) {
            throw new IOException(response.request().method() + " " + response.uri() + " answered " + status
                    + ": " + response.body()
                    + (status == 401 ? " (the user needs the administrator tag and the right password)" : ""));
        }
    }

    /** A path segment: vhost names may hold '/', which the API wants as %2F. */
    private static String segment(String name) {
        return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
