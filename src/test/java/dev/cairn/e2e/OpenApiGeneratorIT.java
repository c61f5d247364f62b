package dev.cairn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * A standard generator, openapi-python-client (pinned in {@code src/test/python/requirements.txt}),
 * makes a Python client from the server's document with no warning: no response dropped for a
 * media type it cannot read, no schema dropped for a reference it cannot follow, and modules named
 * after the operations ({@code list_tokens.py}, not {@code list_1.py}). Its one setting,
 * {@code src/test/python/openapi-generator.yaml}, reads the streams of JSON lines the document declares
 * ({@code application/x-ndjson}: a query's rows, an archive's verification) as bytes, which the
 * generator has no reader for and a generated function could not hand its caller row by row anyway.
 */
class OpenApiGeneratorIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    Path dataDir;

    @TempDir
    Path out;

    @Test
    void openapiPythonClientGeneratesAClientWithNoWarning() throws IOException {
        Path python = PythonTools.python();
        Path document = out.resolve("openapi.json");
        try (CairnServerProcess server = CairnServerProcess.builder("openapi-generator", dataDir)
                .database(db)
                .broker(broker)
                .start()
                .awaitReady()) {
            Files.writeString(document, server.get("/v3/api-docs", null).body());
        }
        PythonTools.Run run = PythonTools.run(
                "openapi-generator",
                List.of(
                        python.toString(),
                        "-m",
                        "openapi_python_client",
                        "generate",
                        "--path",
                        document.toString(),
                        "--config",
                        PythonTools.sources().resolve("openapi-generator.yaml").toString(),
                        "--meta",
                        "none",
                        "--output-path",
                        out.resolve("client").toString()),
                Map.of("NO_COLOR", "1"),
                Duration.ofMinutes(3));
        assertEquals(0, run.exit(), run.output());
        assertFalse(
                run.output().contains("Warning") || run.output().contains("WARNING"),
                "the generator warned:\n" + run.output());
        Path api = out.resolve("client/api");
        try (Stream<Path> modules = Files.walk(api)) {
            List<String> names = modules.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".py"))
                    .toList();
            assertTrue(names.contains("list_tokens.py") && names.contains("show_node.py"), names.toString());
            assertTrue(names.stream().noneMatch(n -> n.matches(".*_[0-9]+\\.py")), names.toString());
        }
        assertTrue(
                Files.exists(out.resolve("client/models/arithmetic_add_inputs.py")),
                "the entry points' input schemas are kept");
    }
}
