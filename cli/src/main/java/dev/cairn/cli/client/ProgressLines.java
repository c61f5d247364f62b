package dev.cairn.cli.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

import tools.jackson.databind.JsonNode;

/**
 * An answer that tells long work as it goes, a line of JSON each (backups, maintenance, imports): lines of
 * progress as they come, then one last line, {@code {"done": …}} with the outcome or a problem (RFC 9457)
 * saying why the work failed. The server writes the outcome last because the answer's status was sent
 * with the first line.
 */
public final class ProgressLines {

    private ProgressLines() {}

    /**
     * Reads {@code answer} to its last line and closes it, handing each progress line to {@code progress}, and returns
     * what its {@code done} line holds; the server's problem as a {@link CliException}, and one naming
     * {@code work} when the answer ends early or the connection breaks ({@code hint} says what to do then).
     */
    public static JsonNode follow(
            CairnClient client, InputStream answer, String work, String hint, Consumer<JsonNode> progress) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(answer, StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode n = JsonTrees.parse(line);
                if (n.path("done").isObject()) {
                    return n.get("done");
                }
                if (n.has("status") && n.has("detail")) {
                    throw client.problem(n.get("status").asInt(), line);
                }
                progress.accept(n);
            }
        } catch (IOException e) {
            throw new CliException(
                    ExitCodes.UNAVAILABLE,
                    "the connection to " + client.target().url() + " ended during " + work + ": " + e.getMessage(),
                    hint,
                    e);
        }
        throw new CliException(
                ExitCodes.FAILED, "the server's answer ended without saying how " + work + " ended", hint);
    }
}
