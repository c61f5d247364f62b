package dev.cairn.cli.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongConsumer;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The REST API as the command line calls it: JSON trees in and out over the JDK's plain HTTP connection, the
 * token on every request, and every failure a {@link CliException} that says what went wrong in the
 * server's own words (its problem details) with the exit code that fits.
 */
public final class CairnClient {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final Target target;
    private final Duration timeout;

    public CairnClient(Target target, Duration timeout) {
        this.target = target;
        this.timeout = timeout;
    }

    public Target target() {
        return target;
    }

    public JsonNode get(String path) {
        return json(exchange("GET", path, "application/json", null, true));
    }

    /** A status and the JSON body that came with it (an empty object when it was not JSON). */
    public record Answer(int status, JsonNode body) {}

    /**
     * A GET that answers whatever its status, for probes such as the health endpoints, whose 503 has a
     * body that says what is down. An unreachable server is still a {@link CliException} (exit code 6).
     */
    public Answer probe(String path) {
        Light.Response response = exchange("GET", path, "application/json", null, true);
        String text = response.text();
        JsonNode body;
        try {
            body = text.isBlank() ? JsonTrees.object() : JsonTrees.parse(text);
        } catch (JacksonException e) {
            body = JsonTrees.object();
        }
        return new Answer(response.status(), body);
    }

    public JsonNode post(String path, JsonNode body) {
        return json(exchange("POST", path, "application/json", Light.Body.json(JsonTrees.compact(body)), true));
    }

    public JsonNode patch(String path, JsonNode body) {
        return json(exchange("PATCH", path, "application/json", Light.Body.json(JsonTrees.compact(body)), true));
    }

    public JsonNode put(String path, JsonNode body) {
        return json(exchange("PUT", path, "application/json", Light.Body.json(JsonTrees.compact(body)), true));
    }

    /** DELETE; the answer's body if it has one, else an empty object. */
    public JsonNode delete(String path) {
        return json(exchange("DELETE", path, "application/json", null, true));
    }

    /** POST of a multipart form, its files streamed from disk. */
    public JsonNode post(String path, Multipart form) {
        long length;
        try {
            length = form.length();
        } catch (IOException e) {
            throw CliException.usage("cannot read a file to upload: " + e.getMessage());
        }
        return json(exchange(
                "POST", path, "application/json", new Light.Body(form.contentType(), length, form::writeTo), true));
    }

    /**
     * A GET whose body the caller reads as it comes (files, NDJSON, the event stream), with no time
     * limit on the whole answer. The caller closes the stream.
     */
    public InputStream stream(String path, String accept) {
        return streamed(exchange("GET", path, accept, null, false));
    }

    /** A POST of a JSON body whose answer the caller reads as it comes (a query's NDJSON rows). */
    public InputStream stream(String path, String accept, String json) {
        return streamed(exchange("POST", path, accept, Light.Body.json(json), false));
    }

    /** A POST of a JSON body whose answer the caller reads as it comes (NDJSON progress). */
    public InputStream postStream(String path, JsonNode body, String accept) {
        return stream(path, accept, JsonTrees.compact(body));
    }

    /**
     * POSTs {@code file} as an octet-stream body (an archive), streamed, telling {@code sent} the bytes gone;
     * the answer is JSON, waited for as long as the server takes (an import reads the whole upload first).
     */
    public JsonNode upload(String path, Path file, LongConsumer sent) {
        return json(uploaded(path, file, sent, "application/json"));
    }

    /**
     * POSTs {@code file} as {@link #upload} does, asking for the answer as lines of JSON (an import's
     * progress), which the caller reads as they come and closes.
     */
    public InputStream uploadForLines(String path, Path file, LongConsumer sent) {
        return streamed(uploaded(path, file, sent, "application/x-ndjson, application/json"));
    }

    private Light.Response uploaded(String path, Path file, LongConsumer sent, String accept) {
        try {
            Light.Body body =
                    new Light.Body("application/octet-stream", Files.size(file), out -> copy(file, out, sent));
            return Light.send("POST", resolve(path), target.token(), accept, body, (int) CONNECT_TIMEOUT.toMillis(), 0);
        } catch (NoSuchFileException e) {
            throw CliException.usage("no such file: " + file);
        } catch (ConnectException e) {
            throw unreachable(e);
        } catch (IOException e) {
            throw new CliException(
                    ExitCodes.UNAVAILABLE,
                    "sending " + file + " to " + target.url() + " failed: " + e.getMessage(),
                    "try again; `cairn status` shows whether the server is up",
                    e);
        }
    }

    private static void copy(Path file, OutputStream out, LongConsumer sent) throws IOException {
        byte[] buffer = new byte[1 << 16];
        long total = 0;
        try (InputStream in = Files.newInputStream(file)) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
                total += n;
                sent.accept(total);
            }
        }
    }

    private InputStream streamed(Light.Response response) {
        if (response.status() >= 400) {
            throw problem(response.status(), response.text());
        }
        return response.body();
    }

    /** Downloads a GET's body to a file. */
    public void download(String path, Path to) {
        try (InputStream in = stream(path, "*/*")) {
            Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new CliException(ExitCodes.FAILED, "cannot write " + to + ": " + e.getMessage(), null, e);
        }
    }

    /** One path segment (a label, an email, a file name), percent-encoded. */
    public static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** A query parameter's value, percent-encoded. */
    public static String param(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private URI resolve(String path) {
        String base = target.url().toString();
        return URI.create(base.endsWith("/") ? base.substring(0, base.length() - 1) + path : base + path);
    }

    /** One request on the plain connection ({@link Light}), its failures in the command line's words. */
    private Light.Response exchange(String method, String path, String accept, Light.Body body, boolean limited) {
        try {
            return Light.send(
                    method,
                    resolve(path),
                    target.token(),
                    accept,
                    body,
                    (int) CONNECT_TIMEOUT.toMillis(),
                    limited ? (int) timeout.toMillis() : 0);
        } catch (ConnectException e) {
            throw unreachable(e);
        } catch (SocketTimeoutException e) {
            if (e.getMessage() != null
                    && e.getMessage().toLowerCase(Locale.ROOT).contains("connect")) {
                throw unreachable(e);
            }
            throw new CliException(
                    ExitCodes.UNAVAILABLE,
                    "the server at " + target.url() + " did not answer within " + timeout.toSeconds() + " s",
                    "try again, or give it longer with --timeout",
                    e);
        } catch (IOException e) {
            throw new CliException(
                    ExitCodes.UNAVAILABLE,
                    "the connection to " + target.url() + " failed: " + e.getMessage(),
                    "try again; `cairn status` shows whether the server is up",
                    e);
        }
    }

    private JsonNode json(Light.Response response) {
        String body = response.text();
        if (response.status() >= 400) {
            throw problem(response.status(), body);
        }
        if (body.isBlank()) {
            return JsonTrees.object();
        }
        try {
            return JsonTrees.parse(body);
        } catch (JacksonException e) {
            throw new CliException(
                    ExitCodes.FAILED,
                    "the server at " + target.url() + " answered " + response.status() + " with a body that is"
                            + " not JSON",
                    "is " + target.url() + " a Cairn server? (" + target.from() + ")",
                    e);
        }
    }

    private CliException unreachable(Exception e) {
        return new CliException(
                ExitCodes.UNAVAILABLE,
                "cannot reach the server at " + target.url() + " (" + target.from() + ")",
                "start one with `cairn up` (embedded, in the foreground) or `cairn server start`, or choose"
                        + " another with --profile (`cairn profile list`)",
                e);
    }

    /** The server's problem details as one line, with the exit code for its status and a hint. */
    public CliException problem(int status, String body) {
        String detail = null;
        try {
            JsonNode problem = body == null || body.isBlank() ? null : JsonTrees.parse(body);
            if (problem != null && problem.isObject()) {
                detail = JsonTrees.text(problem, "detail", JsonTrees.text(problem, "title", null));
            }
        } catch (JacksonException e) {
            // not problem details (a proxy's page): the status says it
        }
        String message = detail != null ? detail : "the server answered HTTP " + status;
        String hint = switch (status) {
            case 401 ->
                "this needs a token: `cairn profile add NAME --server URL --token-file FILE`, or set"
                        + " CAIRN_TOKEN (now: " + target.from() + ")";
            case 403 -> "ask an admin for a token whose role allows this (`cairn token create --role ...`)";
            case 503 -> "try again; `cairn status` shows which service is away";
            default -> null;
        };
        return CliException.answered(status, message, hint);
    }
}
