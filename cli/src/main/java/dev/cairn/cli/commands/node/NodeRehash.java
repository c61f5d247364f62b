package dev.cairn.cli.commands.node;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.options.NodeRef;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.Progress;

@Command(
        name = "rehash",
        description = {
            "Compute the hash caching finds nodes by again, from what is stored, and store it where it differs"
                    + " (after the hash's form changed). --all rehashes every node, inputs before the processes"
                    + " that used them, and asks first unless --force.",
            "Example: cairn node rehash 42 43, cairn node rehash --all --force"
        })
final class NodeRehash implements Callable<Integer> {

    @Mixin
    Session session;

    @Parameters(paramLabel = "REF", arity = "0..*", converter = NodeRef.Converter.class, description = NodeRef.HELP)
    List<NodeRef> refs;

    @Option(names = "--all", description = "Every node.")
    boolean all;

    @Option(
            names = {"-f", "--force"},
            description = "Do not ask before rehashing every node.")
    boolean force;

    @Override
    public Integer call() {
        if (all == (refs != null && !refs.isEmpty())) {
            throw CliException.usage("name the nodes to rehash, or give --all (not both)");
        }
        CairnClient client = session.client();
        Output out = session.output();
        ArrayNode results = JsonTrees.MAPPER.createArrayNode();
        if (!all) {
            for (NodeRef ref : refs) {
                results.add(rehash(client, ref.resolve(client)));
            }
        } else {
            long total = count(client);
            if (!force) {
                if (System.console() == null || !out.terminal().interactive()) {
                    throw CliException.usage(
                            "rehashing all " + total + " nodes needs --force when standard input" + " is no terminal");
                }
                String answer = System.console().readLine("Rehash all %d nodes? [y/N] ", total);
                if (answer == null || !answer.strip().equalsIgnoreCase("y")) {
                    out.note("nothing rehashed");
                    return ExitCodes.FAILED;
                }
            }
            rehashAll(client, out, total, results);
        }
        long changed = 0;
        for (JsonNode result : results) {
            changed += result.path("changed").asBoolean() ? 1 : 0;
        }
        if (out.json()) {
            out.print(results);
        } else {
            if (!all) {
                for (JsonNode result : results) {
                    out.line(result.path("uuid").asString() + "  "
                            + result.path("hash").asString()
                            + (result.path("changed").asBoolean() ? "  (changed)" : ""));
                }
            }
            out.note(
                    results.size() + " node" + (results.size() == 1 ? "" : "s") + " rehashed, " + changed + " changed");
        }
        return ExitCodes.OK;
    }

    private static JsonNode rehash(CairnClient client, String node) {
        return client.post("/api/v1/nodes/" + CairnClient.segment(node) + "/rehash", JsonTrees.object());
    }

    private static ObjectNode allNodes(boolean count) {
        ObjectNode vertex = JsonTrees.object();
        vertex.put("tag", "n");
        vertex.put("entity", "node");
        vertex.putArray("project").add("uuid");
        ObjectNode query = JsonTrees.object();
        query.putArray("path").add(vertex);
        if (!count) {
            ObjectNode order = query.putArray("order_by").addObject();
            order.put("tag", "n");
            order.put("field", "id");
            order.put("order", "asc");
        }
        return query;
    }

    private static long count(CairnClient client) {
        return client.post("/api/v1/query?limit=1&count=true", allNodes(true))
                .path("total")
                .asLong();
    }

    /** Every node by ascending id (inputs are stored before what used them), streamed. */
    private static void rehashAll(CairnClient client, Output out, long total, ArrayNode results) {
        try (InputStream stream = client.stream(
                        "/api/v1/query/stream", "application/x-ndjson", JsonTrees.compact(allNodes(false)));
                BufferedReader lines = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
                Progress progress = out.progress("rehashing", total)) {
            String line;
            while ((line = lines.readLine()) != null) {
                JsonNode row = JsonTrees.parse(line);
                if (row.path("type").isString()) {
                    throw new CliException(
                            ExitCodes.FAILED, JsonTrees.text(row, "detail", "listing nodes failed"), null);
                }
                results.add(rehash(client, row.path("n").path("uuid").asString()));
                progress.advance(1);
            }
        } catch (IOException e) {
            throw new CliException(ExitCodes.UNAVAILABLE, "listing the nodes failed: " + e.getMessage(), null, e);
        }
    }
}
