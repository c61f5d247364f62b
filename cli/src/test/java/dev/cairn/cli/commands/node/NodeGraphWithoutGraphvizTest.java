package dev.cairn.cli.commands.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import dev.cairn.cli.CairnCommand;
import dev.cairn.cli.options.Environment;

/** {@code node graph --format svg} where no Graphviz is on the PATH: a clear message, exit 1, no file. */
class NodeGraphWithoutGraphvizTest {

    private static final String NODE = "{\"uuid\": \"0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55\", \"pk\": 42, \"node_type\":"
            + " \"data.core.int.Int.\", \"label\": \"x\", \"items\": []}";

    @TempDir
    Path dir;

    HttpServer server;

    @AfterEach
    void stop() {
        Environment.reset();
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void svgWithoutGraphvizSaysToInstallItOrUseDotAndDotStillWorks() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = NODE.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        Files.createDirectories(dir.resolve("empty-bin"));
        Environment.set(
                Map.of(
                        "CAIRN_URL",
                        "http://127.0.0.1:" + server.getAddress().getPort(),
                        "CAIRN_TOKEN",
                        "t",
                        "CAIRN_CONFIG_DIR",
                        dir.resolve("config").toString(),
                        "PATH",
                        dir.resolve("empty-bin").toString()),
                dir);

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = CairnCommand.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int svg = cli.execute(
                "node",
                "graph",
                "0190c1a2",
                "--ancestor-depth",
                "0",
                "--descendant-depth",
                "0",
                "--format",
                "svg",
                "-o",
                "g.svg");
        assertEquals(1, svg, err.toString());
        assertTrue(err.toString().contains("needs Graphviz's `dot`"), err.toString());
        assertTrue(err.toString().contains("install graphviz"), err.toString());
        assertTrue(err.toString().contains("--format dot"), err.toString());
        assertFalse(Files.exists(dir.resolve("g.svg")));

        CommandLine again = CairnCommand.commandLine();
        StringWriter dotOut = new StringWriter();
        again.setOut(new PrintWriter(dotOut));
        again.setErr(new PrintWriter(new StringWriter()));
        assertEquals(0, again.execute("node", "graph", "0190c1a2", "--ancestor-depth", "0", "--descendant-depth", "0"));
        assertTrue(dotOut.toString().startsWith("digraph provenance {"), dotOut.toString());
        assertTrue(dotOut.toString().contains("[label=\"Int\\nPK 42\\nx\""), dotOut.toString());
    }
}
