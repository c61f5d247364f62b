package dev.cairn.cli.commands.node;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.options.NodeRef;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.DotGraph;
import dev.cairn.cli.output.NodeTypeNames;
import dev.cairn.cli.output.Output;

@Command(
        name = "graph",
        description = {
            "Draw the provenance graph around a node: DOT, or SVG and PNG through Graphviz's `dot`.",
            "Example: cairn node graph 42 --ancestor-depth 2 --format svg -o graph.svg"
        })
final class NodeGraph implements Runnable {

    @Mixin
    Session session;

    @Parameters(paramLabel = "REF", converter = NodeRef.Converter.class, description = NodeRef.HELP)
    NodeRef ref;

    @Option(
            names = "--ancestor-depth",
            paramLabel = "N",
            defaultValue = "1",
            description = "How many links back to follow (default: ${DEFAULT-VALUE}; 0: none).")
    int ancestorDepth;

    @Option(
            names = "--descendant-depth",
            paramLabel = "N",
            defaultValue = "1",
            description = "How many links forward to follow (default: ${DEFAULT-VALUE}; 0: none).")
    int descendantDepth;

    @Option(
            names = "--link-types",
            paramLabel = "TYPES",
            defaultValue = "all",
            description = "Link types to follow, comma-separated: create, return, input_calc, input_work,"
                    + " call_calc, call_work, or all (default: ${DEFAULT-VALUE}).")
    String linkTypes;

    @Option(
            names = {"-f", "--format"},
            paramLabel = "FORMAT",
            defaultValue = "dot",
            description = "dot, svg or png (svg and png need Graphviz; default: ${DEFAULT-VALUE}).")
    Format format;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            description = "Write here (default: standard output for dot, <uuid>.<format> otherwise).")
    Path output;

    @Override
    public void run() {
        if (ancestorDepth < 0 || descendantDepth < 0) {
            throw CliException.usage("--ancestor-depth and --descendant-depth take 0 or more");
        }
        CairnClient client = session.client();
        String base = ref.path(client);
        JsonNode root = client.get(base + "?attributes=&extras=");
        String rootUuid = root.path("uuid").asString();
        String types = "all".equals(linkTypes) ? "" : "&link_types=" + CairnClient.param(linkTypes);
        Map<String, JsonNode> nodes = new LinkedHashMap<>();
        nodes.put(rootUuid, root);
        String walk = "&link_types=" + CairnClient.param(linkTypes);
        if (ancestorDepth > 0) {
            walk(client, base + "/ancestors?depth=" + ancestorDepth + walk, nodes);
        }
        if (descendantDepth > 0) {
            walk(client, base + "/descendants?depth=" + descendantDepth + walk, nodes);
        }
        DotGraph graph = new DotGraph();
        nodes.forEach(
                (uuid, node) -> graph.node(uuid, node.path("node_type").asString(), text(node), uuid.equals(rootUuid)));
        for (String uuid : nodes.keySet()) {
            String url = "/api/v1/nodes/" + uuid + "/links/outgoing?limit=1000" + types;
            for (JsonNode link : client.get(url).path("items")) {
                String to = link.path("node").path("uuid").asString();
                if (graph.has(to)) {
                    graph.link(
                            uuid,
                            to,
                            link.path("type").asString(),
                            link.path("label").asString());
                }
            }
        }
        write(graph.render(), rootUuid);
    }

    /** Adds the nodes of every page of a walk. */
    private static void walk(CairnClient client, String url, Map<String, JsonNode> nodes) {
        String cursor = null;
        do {
            JsonNode page =
                    client.get(url + "&limit=500" + (cursor == null ? "" : "&cursor=" + CairnClient.param(cursor)));
            for (JsonNode node : page.path("items")) {
                nodes.putIfAbsent(node.path("uuid").asString(), node);
            }
            cursor = page.path("next").isString() ? page.path("next").asString() : null;
        } while (cursor != null);
    }

    private static String text(JsonNode node) {
        String label = node.path("label").asString();
        String id = node.path("pk").isNumber()
                ? "PK " + node.get("pk").asString()
                : node.path("uuid").asString(); // a server older than the pk in its views
        return NodeTypeNames.name(node) + "\n" + id + (label.isEmpty() ? "" : "\n" + label);
    }

    private void write(String dot, String rootUuid) {
        Output out = session.output();
        if (format == Format.dot) {
            if (output == null) {
                out.out().print(dot);
                out.out().flush();
                return;
            }
            try {
                Files.writeString(session.workingDirectory().resolve(output), dot, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new CliException(ExitCodes.FAILED, "cannot write " + output + ": " + e.getMessage(), null);
            }
            out.note("wrote " + output);
            return;
        }
        Path file = session.workingDirectory().resolve(output != null ? output : Path.of(rootUuid + "." + format));
        render(dot, file);
        out.note("wrote " + (output != null ? output : file.getFileName()));
    }

    private void render(String dot, Path file) {
        Path graphviz = findDot();
        if (graphviz == null) {
            throw new CliException(
                    ExitCodes.FAILED,
                    "--format " + format + " needs Graphviz's `dot`, which is not on the PATH",
                    "install graphviz (apt install graphviz, brew install graphviz), or use --format dot");
        }
        try {
            Process process = new ProcessBuilder(graphviz.toString(), "-T" + format, "-o", file.toString())
                    .redirectErrorStream(true)
                    .start();
            try (OutputStream in = process.getOutputStream()) {
                in.write(dot.getBytes(StandardCharsets.UTF_8));
            }
            String said;
            try (InputStream messages = process.getInputStream()) {
                said = new String(messages.readAllBytes(), StandardCharsets.UTF_8).strip();
            }
            if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new CliException(ExitCodes.FAILED, "Graphviz's dot failed: " + said, null);
            }
        } catch (IOException e) {
            throw new CliException(ExitCodes.FAILED, "running " + graphviz + " failed: " + e.getMessage(), null, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCodes.INTERRUPTED, "interrupted", null, e);
        }
    }

    private Path findDot() {
        String path = session.env().getOrDefault("PATH", System.getenv("PATH"));
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "dot");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** Output formats of {@code node graph}. */
    enum Format {
        dot,
        svg,
        png
    }
}
