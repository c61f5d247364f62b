package dev.cairn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * A client written only from the OpenAPI document ({@code src/test/python/openapi_client.py}, run by
 * the test venv's python) against the server jar: it uploads an Int and a file, submits
 * {@code arithmetic.add_multiply} with the Int as an input by uuid, follows the process's events
 * until it finished, and reads its provenance (outputs, the output node, its CREATE and RETURN
 * links), checking every answer against the document.
 */
class OpenApiClientIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    Path dataDir;

    @Test
    void aClientWrittenFromTheDocumentUploadsSubmitsFollowsAndReadsProvenance() {
        Path python = PythonTools.python();
        Path client = PythonTools.sources().resolve("openapi_client.py");
        try (CairnServerProcess server = CairnServerProcess.builder("openapi-client", dataDir)
                .database(db)
                .broker(broker)
                .start()
                .awaitReady()) {
            PythonTools.Run run = PythonTools.run(
                    "openapi-client",
                    List.of(python.toString(), client.toString(), server.url().toString(), server.adminToken()),
                    Map.of("PYTHONUNBUFFERED", "1"),
                    Duration.ofMinutes(2));
            assertEquals(0, run.exit(), "the client found a mismatch:\n" + run.output() + server.logTail());
            assertTrue(run.output().contains("the client read everything as the document says"), run.output());
            assertTrue(run.output().contains("finished with result 32"), run.output());
        }
    }
}
